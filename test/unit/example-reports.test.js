const fs = require('node:fs');
const path = require('node:path');

/**
 * The report branch of the examples "completed report to HR" and "sweep of open transactions": when a
 * transaction is done (its If's expression), which checks Each Check reads, what Reports to Download
 * passes on (and names), and the one email HR gets. The Code nodes and the expression run as written in
 * the example files, with n8n's `$input` and `$('Node')` stood in for.
 */
const example = (file) =>
	JSON.parse(fs.readFileSync(path.join(__dirname, '../../examples', file), 'utf8'));
const EXAMPLES = {
	hr: { file: 'completed-report-to-hr.json', first: 'Check Completed' },
	sweep: { file: 'open-transactions-sweep.json', first: 'Open Transactions' },
};
const nodeOf = (file, name) => {
	const node = example(file).nodes.find((each) => each.name === name);
	if (!node) throw new Error(`${file} has no node "${name}"`);
	return node;
};

/** `={{ … }}` of the If node that decides "done", evaluated for one Get Status answer. */
function isDone(file, status) {
	const [condition] = nodeOf(file, 'All Checks Done?').parameters.conditions.conditions;
	expect(condition.operator).toEqual({ type: 'boolean', operation: 'true', singleValue: true });
	const expression = condition.leftValue.replace(/^=\{\{/, '').replace(/\}\}$/, '');
	return new Function('$json', `return ${expression};`)(status) === true;
}

/** Runs a Code node of the example; `nodes` are the outputs of the nodes it reads, by name. */
function runCode(file, name, input, nodes) {
	const $input = { all: () => input };
	const $ = (other) => ({
		all: () => nodes[other],
		first: () => nodes[other][0],
		itemMatching: (index) => nodes[other][index] ?? nodes[other][0],
	});
	return new Function('$input', '$', nodeOf(file, name).parameters.jsCode)($input, $);
}

const check = (name, state, extra = {}) => ({ name, state, ...extra });
const json = (value) => ({ json: value });

describe.each(Object.entries(EXAMPLES))(
	'example %s: a transaction is done by its checks',
	(_, { file }) => {
		it('is done when every check is COMPLETED or marked as skipped, whatever the transaction state says', () => {
			const status = (checks, state) => ({ state, verificationList: checks });
			expect(
				isDone(
					file,
					status(
						[check('bgv-cibil', 'COMPLETED'), check('bgv-criminal', 'COMPLETED')],
						'IN_PROGRESS',
					),
				),
			).toBe(true);
			expect(
				isDone(
					file,
					status([
						check('bgv-cibil', 'COMPLETED'),
						check('bgv-criminal', 'NOT_STARTED', { markedAsSkip: true }),
					]),
				),
			).toBe(true);
			expect(
				isDone(
					file,
					status(
						[check('bgv-cibil', 'COMPLETED'), check('bgv-criminal', 'IN_PROGRESS')],
						'COMPLETED',
					),
				),
			).toBe(false);
			expect(
				isDone(
					file,
					status([
						check('bgv-cibil', 'INSUFFICIENT_DATA', { markedAsSkip: false }),
						check('bgv-criminal', 'COMPLETED'),
					]),
				),
			).toBe(false);
			expect(isDone(file, status([], 'COMPLETED'))).toBe(false);
			expect(isDone(file, {})).toBe(false);
		});
	},
);

describe.each(Object.entries(EXAMPLES))(
	'example %s: the per-check reports',
	(_, { file, first }) => {
		const verificationList = [
			check('bgv-cibil', 'COMPLETED', { markedAsSkip: false }),
			check('bgv-police-verification', 'COMPLETED', { markedAsSkip: false }),
			check('bgv-criminal', 'NOT_STARTED', { markedAsSkip: true }),
		];
		const nodes = {
			'Get Status': [json({ verificationList })],
			[first]: [json({ transactionId: 'TXN1' })],
		};

		it('Each Check reads every check but those the candidate skipped', () => {
			expect(runCode(file, 'Each Check', [json({})], nodes)).toEqual([
				{ json: { transactionId: 'TXN1', check: 'bgv-cibil' }, pairedItem: { item: 0 } },
				{
					json: { transactionId: 'TXN1', check: 'bgv-police-verification' },
					pairedItem: { item: 0 },
				},
			]);
		});

		const eachCheck = [
			json({ transactionId: 'TXN1', check: 'bgv-cibil' }),
			json({ transactionId: 'TXN1', check: 'bgv-police-verification' }),
		];
		const withNodes = { ...nodes, 'Each Check': eachCheck };

		it('Reports to Download passes the checks with a report link on and names the others (no report, skipped)', () => {
			const statuses = [json({ reportUrl: 'https://files/cibil.pdf' }), json({ reportUrl: null })];
			expect(runCode(file, 'Reports to Download', statuses, withNodes)).toEqual([
				{
					json: {
						transactionId: 'TXN1',
						check: 'bgv-cibil',
						reportUrl: 'https://files/cibil.pdf',
						notAttached: ['bgv-police-verification (no report)', 'bgv-criminal (skipped)'],
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		it('Reports to Download gives a transaction none of whose checks has a report one item without a link, naming them', () => {
			const statuses = [json({ reportUrl: null }), json({})];
			const [only, ...rest] = runCode(file, 'Reports to Download', statuses, withNodes);
			expect(rest).toEqual([]);
			expect(only).toEqual({
				json: {
					transactionId: 'TXN1',
					notAttached: [
						'bgv-cibil (no report)',
						'bgv-police-verification (no report)',
						'bgv-criminal (skipped)',
					],
				},
				pairedItem: { item: 0 },
			});
			const hasReport = nodeOf(file, 'Has Report?').parameters.conditions.conditions[0];
			expect([hasReport.leftValue, hasReport.operator.operation]).toEqual([
				'={{ $json.reportUrl }}',
				'notEmpty',
			]);
		});
	},
);

describe('example hr: one email per transaction', () => {
	const file = EXAMPLES.hr.file;
	const workflow = example(file);
	const targets = (name, output) =>
		(workflow.connections[name]?.main[output] ?? []).map((link) => link.node);

	it('Has Report? sends a check with a report to Download Check Report and a transaction without any straight to One Email', () => {
		expect(targets('Get Check Report', 0)).toEqual(['Reports to Download']);
		expect(targets('Reports to Download', 0)).toEqual(['Has Report?']);
		expect(targets('Has Report?', 0)).toEqual(['Download Check Report']);
		expect(targets('Has Report?', 1)).toEqual(['One Email']);
		expect(targets('Download Check Report', 0)).toEqual(['One Email']);
		expect(targets('One Email', 0)).toEqual(['Email HR']);
	});

	it('One Email attaches each report and carries the checks not attached; with no report it is one email all the same', () => {
		const notAttached = ['bgv-police-verification (no report)'];
		const nodes = { 'Reports to Download': [json({ notAttached })] };
		const report = (fileName) => ({ json: {}, binary: { report: { fileName } } });
		expect(runCode(file, 'One Email', [report('a.pdf'), report('b.pdf')], nodes)).toEqual([
			{
				json: { notAttached },
				binary: { report_1: { fileName: 'a.pdf' }, report_2: { fileName: 'b.pdf' } },
				pairedItem: { item: 0 },
			},
		]);
		expect(runCode(file, 'One Email', [json({ notAttached })], nodes)).toEqual([
			{ json: { notAttached }, binary: {}, pairedItem: { item: 0 } },
		]);
		const text = nodeOf(file, 'Email HR').parameters.text;
		const sentence = text.match(/\{\{ \(\$json\.notAttached[^}]*\}\}/)[0].slice(3, -3);
		expect(
			new Function('$json', `return ${sentence};`)({
				notAttached: ['x (no report)', 'y (skipped)'],
			}),
		).toBe(' No report attached for: x (no report), y (skipped).');
		expect(new Function('$json', `return ${sentence};`)({})).toBe('');
	});
});

describe('example candidates to reports: a run again sends every check of an earlier candidate to Submit', () => {
	const workflow = example('candidates-to-reports.json');
	it('tests no check state: Transaction ID Known? leads straight to the document and the five submissions', () => {
		expect(workflow.connections['Transaction ID Known?'].main[0].map((link) => link.node)).toEqual([
			'Make Employment Document',
		]);
		expect(JSON.stringify(workflow.nodes)).not.toContain('NOT_STARTED');
	});
});
