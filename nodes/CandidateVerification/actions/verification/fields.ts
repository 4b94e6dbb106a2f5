import type { INodeProperties } from 'n8n-workflow';

import {
	CHECK_OPTIONS_V2,
	FORM_VERIFICATION_NAMES,
	INSTANT_CALL_NAMES,
	INSTANT_CHECKS,
} from '../../../shared/checks';
import { mappedField, mappingModeProperties } from '../../engine/mapping';
import { fromVersion } from '../../helpers/versions';
import { typedCheckFields, typedCheckFor } from './checks';
import { checkField, showFor } from './checks/shared';
import { dataExample } from './examples';

/** Checks that take `data` as JSON: on both versions (`versions` undefined) or on version 1 only. */
const JSON_CHECK_VERSIONS: Array<{ check: string; versions?: number[] }> =
	FORM_VERIFICATION_NAMES.map(({ value }) => value)
		.filter((check) => !typedCheckFor(check, 1))
		.map((check) => ({
			check,
			versions:
				CHECK_OPTIONS_V2.some(({ value }) => value === check) && !typedCheckFor(check, 2)
					? undefined
					: [1],
		}));

/** Names as a sentence lists them: 'A, B and C'. */
function listed(names: readonly string[]): string {
	if (names.length < 2) return names.join('');
	return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export const verificationSubmitFields: INodeProperties[] = [
	mappedField({
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. TXN1a2b3c4d',
		description:
			'The candidate’s transaction ID, returned by Profile → Create (e.g. its transactionId output field)',
		// One declaration for Submit and the Transaction operations: the value stays when the
		// operation is switched.
		displayOptions: {
			show: {
				resource: ['verification', 'transaction'],
				operation: ['submit', 'getStatus', 'getCheckStatus', 'resolveInsufficiency'],
			},
		},
	}),
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...FORM_VERIFICATION_NAMES],
		description:
			'The check to submit data for, one of the checks of the candidate’s form. Employment, credit, criminal, police, 10th and 12th education have typed fields; every other check takes its data as JSON.',
		displayOptions: {
			show: { '@version': [1], resource: ['verification'], operation: ['submit'] },
		},
	},
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...CHECK_OPTIONS_V2],
		description:
			'The check to submit data for, one of the checks of the candidate’s form. Every check with a public submission shape has typed fields; the others take their data as JSON. The form’s Police Verification is Police Verification (Address); the certificate has its own choice.',
		displayOptions: {
			show: { '@version': fromVersion(2), resource: ['verification'], operation: ['submit'] },
		},
	},
	...mappingModeProperties(
		{ resource: ['verification'], operation: ['submit'] },
		'Transaction ID or transactionId, Employer Name or employerName',
	),
	...typedCheckFields(),
	{
		displayName:
			`${listed(INSTANT_CALL_NAMES)} have instant calls of their own: use the Instant KYC resource. ` +
			'Submitted here, the check’s data goes to the form’s check as JSON; the placeholder shows presumed field names.',
		name: 'instantCheckNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor(INSTANT_CHECKS),
	},
	// One notice for the JSON checks of both versions, one for those typed on version 2.
	...[undefined, [1]].map(
		(versions): INodeProperties => ({
			displayName:
				'The provider’s public pages do not give this check’s data: enter the object the provider gives you. The placeholder shows a presumed example.',
			name: 'jsonDataNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor(
				JSON_CHECK_VERSIONS.filter(
					({ check, versions: shownOn }) =>
						!INSTANT_CHECKS.includes(check) && String(shownOn) === String(versions),
				).map(({ check }) => check),
				versions,
			),
		}),
	),
	// One Data field per check so that each shows its own example.
	...JSON_CHECK_VERSIONS.map(
		({ check, versions }): INodeProperties =>
			checkField({
				displayName: 'Data (JSON)',
				name: 'data',
				type: 'json',
				required: true,
				default: '',
				placeholder: dataExample(check),
				description:
					'The check’s data object, sent unchanged as "data". Map values from earlier nodes with expressions.',
				displayOptions: showFor([check], versions),
			}),
	),
];
