import type { INodeProperties } from 'n8n-workflow';

import { description } from '../../../../nodes/CandidateVerification/actions/verification/resolveInsufficiency.operation';

/** Every property of a description, nested collections included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...allProperties(
			((property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap(
				(option) =>
					'values' in option && option.values
						? option.values
						: 'type' in option
							? [option as INodeProperties]
							: [],
			),
		),
	]);
}

describe('Resolve Insufficiency → Documents → Label', () => {
	it('hints at the label convention of the provider’s older page for a document that answers a question', () => {
		const label = allProperties(description).find(
			(property) => property.name === 'label' && property.displayName === 'Label',
		);
		expect(label?.hint).toMatch(/insufficiencyId followed by ::FILE::1/);
	});
});
