import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../../nodes/CandidateVerification/CandidateVerification.node';
import { findOperation, RESOURCES } from '../../../nodes/CandidateVerification/actions/router';

const { description } = new CandidateVerification();
const versions = ([] as number[]).concat(description.version);

/** Whether the editor shows a field or an option on this node version with these values. */
function shown(
	parameter: INodeProperties | INodePropertyOptions,
	values: Record<string, string>,
	typeVersion: number,
): boolean {
	return NodeHelpers.displayParameter(values, parameter, { typeVersion }, description, values);
}

/** The options of the shown selectors of this name, on this version with these values. */
function offered(
	name: string,
	values: Record<string, string>,
	typeVersion: number,
): INodePropertyOptions[] {
	return description.properties
		.filter((property) => property.name === name && shown(property, values, typeVersion))
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		.filter((option) => shown(option, values, typeVersion));
}

/** Every resource and operation the editor offers on a version, as "resource/operation". */
function offeredOperations(typeVersion: number): Array<[string, INodePropertyOptions]> {
	return offered('resource', {}, typeVersion).flatMap(({ value }) =>
		offered('operation', { resource: String(value) }, typeVersion).map(
			(option): [string, INodePropertyOptions] => [String(value), option],
		),
	);
}

describe('the router', () => {
	it.each(versions)(
		'on version %s, every Operation option resolves to an operation named by its action',
		(typeVersion) => {
			const options = offeredOperations(typeVersion);
			expect(options.length).toBeGreaterThan(0);
			for (const [resource, option] of options) {
				const found = findOperation(resource, String(option.value));
				expect({ resource, operation: option.value, found: found !== undefined }).toEqual({
					resource,
					operation: option.value,
					found: true,
				});
				expect(option.action).toBe(found!.operation.label);
			}
		},
	);

	it('offers every operation it runs on some version, with the operation’s fields in the node', () => {
		const offeredNames = versions.flatMap((typeVersion) =>
			offeredOperations(typeVersion).map(([resource, option]) => `${resource}/${option.value}`),
		);
		for (const [resource, { operations }] of Object.entries(RESOURCES)) {
			for (const [operation, module] of Object.entries(operations)) {
				expect(offeredNames).toContain(`${resource}/${operation}`);
				const missing = module.description.filter(
					(field) => !description.properties.includes(field),
				);
				expect({ resource, operation, missing: missing.map(({ name }) => name) }).toEqual({
					resource,
					operation,
					missing: [],
				});
			}
		}
	});

	it.each(versions)(
		'on version %s, Mapping Mode is shown for exactly the operations that declare it',
		(typeVersion) => {
			const declaring = Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
				Object.entries(operations)
					.filter(([, module]) => module.operation.mappingMode)
					.map(([operation]) => `${resource}/${operation}`),
			);
			expect(declaring.length).toBeGreaterThan(0);
			const withMappingMode = offeredOperations(typeVersion)
				.map(([resource, option]) => ({ resource, operation: String(option.value) }))
				.filter((values) => offered('mappingMode', values, typeVersion).length > 0)
				.map(({ resource, operation }) => `${resource}/${operation}`);
			expect(withMappingMode.sort()).toEqual(declaring.sort());
		},
	);

	it('finds nothing for a value the node does not have', () => {
		expect(findOperation('instantKyc', 'verifyPassport')).toBeUndefined();
		expect(findOperation('passport', 'verify')).toBeUndefined();
		expect(findOperation('file', 'toString')).toBeUndefined();
	});
});
