import type { INodeProperties, IDisplayOptions } from 'n8n-workflow';

export const MAPPING_MODE = 'mappingMode';
export const MAP_EACH_FIELD = 'defineBelow';
export const MAP_AUTOMATICALLY = 'autoMapInputData';

/**
 * Mapping Mode, as Google Sheets and Airtable offer it. Map Automatically reads each field from the
 * input item's column of the same name: nothing to map by hand, and no expression to evaluate.
 */
export function mappingModeProperties(
	show: NonNullable<IDisplayOptions['show']>,
	example: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Mapping Mode',
			name: MAPPING_MODE,
			type: 'options',
			noDataExpression: true,
			default: MAP_EACH_FIELD,
			options: [
				{
					name: 'Map Each Field Below',
					value: MAP_EACH_FIELD,
					description: 'Set each field below, with an expression where it comes from the input',
				},
				{
					name: 'Map Automatically',
					value: MAP_AUTOMATICALLY,
					description:
						'Read each field from the input column of the same name: nothing to map by hand',
				},
			],
			description: 'How the fields get their values',
			displayOptions: { show },
		},
		{
			displayName: `Each field is read from the input item's column named like its label or its API name (any case; spaces and punctuation ignored), e.g. ${example}. Other columns are ignored.`,
			name: 'mappingNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, [MAPPING_MODE]: [MAP_AUTOMATICALLY] } },
		},
	];
}

/** A field that Map Automatically reads from the input: hidden in that mode. */
export function mappedField(property: INodeProperties): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: {
			...displayOptions,
			hide: { ...(displayOptions.hide ?? {}), [MAPPING_MODE]: [MAP_AUTOMATICALLY] },
		},
	};
}

/** The key a column and a field are matched on: "Father’s Name", "fathers_name" → "fathersname". */
export function columnKey(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
