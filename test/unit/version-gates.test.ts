import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';

// The node as a version 3 would see it: today's description with one version more, no field edited.
const today = new CandidateVerification().description;
const versions = ([] as number[]).concat(today.version);
const current = Math.max(...versions);
const next = current + 1;
const description: INodeTypeDescription = { ...today, version: [...versions, next] };
const { properties } = description;

type Values = Record<string, unknown>;

function shown(parameter: INodeProperties | INodePropertyOptions, values: Values, version: number) {
	return NodeHelpers.displayParameter(
		values as never,
		parameter,
		{ typeVersion: version },
		description,
		values as never,
	);
}

/** The indexes of the properties the panel shows with these values on a version. */
function panel(values: Values, version: number): number[] {
	return properties.flatMap((property, index) => (shown(property, values, version) ? [index] : []));
}

/** A selector's option values shown with these values on a version. */
function optionValues(property: INodeProperties, values: Values, version: number): unknown[] {
	return ((property.options ?? []) as INodePropertyOptions[])
		.filter((option) => shown(option, values, version))
		.map(({ value }) => value);
}

/**
 * The panels to compare on `version`: each resource and operation with the shown fields at their
 * defaults, and then each option of each shown selector (the Check, Mapping Mode, …) in turn.
 */
function panelValues(version: number): Values[] {
	const resources = properties.filter((p) => p.name === 'resource' && shown(p, {}, version));
	return resources.flatMap((resourceField) =>
		optionValues(resourceField, {}, version).flatMap((resource) =>
			properties
				.filter((p) => p.name === 'operation' && shown(p, { resource }, version))
				.flatMap((operationField) => optionValues(operationField, { resource }, version))
				.flatMap((operation) => {
					const base: Values = { resource, operation };
					for (const index of panel(base, version)) {
						const { name, default: value } = properties[index];
						if (!(name in base)) base[name] = value;
					}
					const variants = panel(base, version)
						.map((index) => properties[index])
						.filter(
							({ type, name }) => type === 'options' && !['resource', 'operation'].includes(name),
						)
						.flatMap((selector) =>
							optionValues(selector, base, version).map((value) => ({
								...base,
								[selector.name]: value,
							})),
						);
					return [base, ...variants];
				}),
		),
	);
}

const frozen = properties.filter(({ displayOptions }) => {
	const gate = displayOptions?.show?.['@version'];
	return (
		gate !== undefined &&
		!gate.some((condition) => condition === current || typeof condition === 'object')
	);
});

describe(`a version ${next} of the node`, () => {
	const panels = panelValues(current);

	it(`has the panels of version ${current} to compare`, () => {
		expect(panels.length).toBeGreaterThan(100);
		const operations = new Set(panels.map(({ resource, operation }) => `${resource}/${operation}`));
		expect(operations).toContain('verification/submit');
		expect(operations).toContain('transaction/getCheckStatus');
		expect(frozen.length).toBeGreaterThan(0);
	});

	it(`shows every field version ${current} shows, for every resource, operation and choice`, () => {
		for (const values of panels) {
			const onCurrent = panel(values, current).map((index) => `${properties[index].name}#${index}`);
			const onNext = panel(values, next).map((index) => `${properties[index].name}#${index}`);
			expect({ values, fields: onNext }).toEqual({ values, fields: onCurrent });
		}
	});

	it('shows none of the fields frozen on an older version', () => {
		const frozenShown = panels.flatMap((values) =>
			frozen.filter((property) => shown(property, values, next)).map(({ name }) => name),
		);
		expect(frozenShown).toEqual([]);
	});
});
