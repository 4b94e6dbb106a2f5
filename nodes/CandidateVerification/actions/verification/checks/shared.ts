import type { DisplayCondition, IDataObject, INodeProperties } from 'n8n-workflow';

import type { NodeVersion } from '../../../../shared/checks';
import { describe, type ItemInput } from '../../../engine/itemInput';
import { formatYearMonthDay, toCalendarDate } from '../../../helpers/dates';
import { MAP_EACH_FIELD, MAPPING_MODE, mappedField } from '../../../engine/mapping';

/** Builds a check's `data`; `check` is the check chosen (validated). */
export type DataBuilder = (input: ItemInput, check: string) => IDataObject;

/** A field of a typed check, without its display conditions: the list gives them (checks/index.ts). */
export interface TypedField {
	property: Omit<INodeProperties, 'displayOptions'>;
	/** Read from the input by Map Automatically (hidden then). */
	mapped?: boolean;
	/** Shown on version 1 only (a meaning saved workflows keep), or from this later version on. */
	version?: NodeVersion;
	/** One property per check, with what differs per check (e.g. its own placeholder). */
	eachCheck?: (check: string) => Partial<INodeProperties>;
}

/** A field several typed checks read: one check places it, the others name it in `uses`. */
export interface SharedField {
	shared: TypedField;
}

export interface TypedCheck {
	/** The names Submit sends for it: the builder is chosen by the name sent. */
	checks: readonly string[];
	/** The node version it is typed from; earlier versions take its data as JSON. */
	since: NodeVersion;
	/** Its fields in panel order; a shared field placed here shows for every check that uses it. */
	fields: ReadonlyArray<TypedField | SharedField>;
	/** Shared fields placed by another check that this check's builder reads. */
	uses?: readonly SharedField[];
	build: DataBuilder;
}

/**
 * Shown for these checks of Submit; on the node versions the `@version` condition given shows
 * (exact versions, or `fromVersion`), else on every version. The version comes first: n8n shows a
 * field at once when a condition's value is an expression (a Check set by an expression), without
 * reading the conditions after it.
 */
export function showFor(
	verificationNames: readonly string[],
	versions?: Array<number | DisplayCondition>,
) {
	return {
		show: {
			...(versions ? { '@version': versions } : {}),
			resource: ['verification'],
			operation: ['submit'],
			verificationName: [...verificationNames],
		},
	};
}

/**
 * A field of one or more checks that Map Automatically reads from the input. Its Mapping Mode
 * condition is also one of `show`, before the Check's: n8n shows a field at once when a condition's
 * value is an expression, so with a Check set by an expression, Map Automatically still hides (and
 * n8n does not require) the fields it reads.
 */
export function checkField(property: INodeProperties): INodeProperties {
	const { '@version': versions, ...show } = property.displayOptions?.show ?? {};
	return mappedField({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: {
				...(versions ? { '@version': versions } : {}),
				[MAPPING_MODE]: [MAP_EACH_FIELD],
				...show,
			},
		},
	});
}

export const ADDRESS_FIELDS = [
	{ name: 'line1', displayName: 'Address Line 1' },
	{ name: 'vtc', displayName: 'Village / Town / City' },
	{ name: 'district', displayName: 'District' },
	{ name: 'state', displayName: 'State' },
	{ name: 'pincode', displayName: 'Pincode' },
	{ name: 'country', displayName: 'Country' },
] as const;

export function addressField(name: string, displayName: string): TypedField {
	return {
		mapped: true,
		property: {
			displayName,
			name,
			type: 'fixedCollection',
			required: true,
			default: {},
			placeholder: 'Add Address',
			options: [
				{
					displayName: 'Address',
					name: 'address',
					values: ADDRESS_FIELDS.map((field) => ({
						displayName: field.displayName,
						name: field.name,
						type: 'string' as const,
						default: '',
					})),
				},
			],
		},
	};
}

/** The document URL of the employment, credit and education checks. */
export const DOCUMENT_URL: SharedField = {
	shared: {
		mapped: true,
		property: {
			displayName: 'Document URL',
			name: 'documentUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.fileUrl }}',
			description:
				'URL of the uploaded document (the employment document, the PAN document for a credit check, the marksheet for an education check), as File → Upload returns it',
		},
	},
};

/** The permanent address of the credit and criminal checks. */
export const PERMANENT_ADDRESS: SharedField = {
	shared: addressField('permanentAddress', 'Permanent Address'),
};

export function readText(input: ItemInput, parameterName: string, displayName: string) {
	return input.text(displayName, input.field(parameterName, displayName));
}

export function readDate(input: ItemInput, parameterName: string, displayName: string) {
	const value = input.field(parameterName, displayName);
	if (value === undefined || value === null || value === '') {
		return input.problem(displayName, 'it is required and is empty');
	}
	return formatDate(input, displayName, value);
}

export function formatDate(input: ItemInput, displayName: string, value: unknown) {
	const date = toCalendarDate(value, input.timezone);
	if (date) return formatYearMonthDay(date);
	return input.problem(
		displayName,
		`${describe(value)} is not a date`,
		'Use YYYY-MM-DD, DD-MM-YYYY, 17 May 1994, a spreadsheet serial number or a date expression.',
	);
}

export function readAddress(input: ItemInput, parameterName: string, displayName: string) {
	const raw = (input.field(`${parameterName}.address`, displayName, {}) ?? {}) as IDataObject;
	const address: IDataObject = {};
	for (const field of ADDRESS_FIELDS) {
		const text = input.optionalText(`${displayName} → ${field.displayName}`, raw[field.name]);
		if (text) address[field.name] = text;
	}
	if (Object.keys(address).length === 0) input.problem(displayName, 'it is required and is empty');
	return address;
}

/** Name as per Document, Name of Institute, Registration Number: education and degree alike. */
export function documentIdentityFields(institute: string): TypedField[] {
	return [
		{
			displayName: 'Name as per Document',
			name: 'nameAsPerDocument',
			type: 'string' as const,
			required: true,
			default: '',
			placeholder: 'e.g. Asha Verma',
			description: 'The candidate’s name exactly as the marksheet or certificate writes it',
		},
		{
			displayName: 'Name of Institute',
			name: 'nameOfInstitute',
			type: 'string' as const,
			required: true,
			default: '',
			placeholder: `e.g. ${institute}`,
			description: 'The school, college or university as named in the document',
		},
		{
			displayName: 'Registration Number',
			name: 'registrationNumber',
			type: 'string' as const,
			required: true,
			default: '',
			placeholder: 'e.g. 2012/0456789',
			description: 'Roll or registration number printed on the document',
		},
	].map((property) => ({ property, mapped: true }));
}

/** Name as per Document, Name of Institute, Registration Number (education and degree). */
export function readDocumentIdentity(input: ItemInput): IDataObject {
	return {
		nameAsPerDocument: readText(input, 'nameAsPerDocument', 'Name as per Document'),
		nameOfInstitute: readText(input, 'nameOfInstitute', 'Name of Institute'),
		registrationNumber: readText(input, 'registrationNumber', 'Registration Number'),
	};
}
