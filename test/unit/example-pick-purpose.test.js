const fs = require('node:fs');
const path = require('node:path');

/** The Code node "Pick Purpose" of the example candidates-to-reports, run on the items given. */
function pickPurpose(purposes) {
	const workflow = JSON.parse(
		fs.readFileSync(path.join(__dirname, '../../examples/candidates-to-reports.json'), 'utf8'),
	);
	const { jsCode } = workflow.nodes.find((node) => node.name === 'Pick Purpose').parameters;
	const $input = { all: () => purposes.map((json) => ({ json })) };
	return new Function('$input', jsCode)($input);
}

describe('example "candidates to reports": Pick Purpose', () => {
	it('passes on the purpose named BGV', () => {
		expect(
			pickPurpose([
				{ _id: 'p-1', name: 'KYC' },
				{ _id: 'p-2', name: 'BGV' },
			]),
		).toEqual([{ json: { _id: 'p-2', name: 'BGV' } }]);
	});

	it('stops the run, naming the purposes the service has, when none is named BGV', () => {
		expect(() =>
			pickPurpose([
				{ _id: 'p-1', name: 'KYC' },
				{ _id: 'p-3', name: 'Background check' },
			]),
		).toThrow(
			'No purpose is named "BGV" (the service has "KYC", "Background check"): set PURPOSE_NAME in Pick Purpose',
		);
		expect(() => pickPurpose([])).toThrow(
			'No purpose is named "BGV" (the service has none): set PURPOSE_NAME in Pick Purpose',
		);
	});
});
