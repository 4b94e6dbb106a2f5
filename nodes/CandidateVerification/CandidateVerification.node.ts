import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESOURCES, resourceOptions, router, type ResourceValue } from './actions/router';
import { requestOptionsProperty } from './engine/requestOptions';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { subtitleExpression } from './helpers/subtitle';
import { listSearch } from './methods';

/**
 * Every resource's Operation selector before the fields, so a field declared once for several
 * resources (Transaction ID) shows below the Operation of each of them.
 */
function operationsFirst(properties: INodeProperties[]): INodeProperties[] {
	return [
		...properties.filter((property) => property.name === 'operation'),
		...properties.filter((property) => property.name !== 'operation'),
	];
}

/** The resource a new node opens on. */
const defaultResource: ResourceValue = 'profile';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceOptions(),
		default: defaultResource,
	},
	...operationsFirst(Object.values(RESOURCES).flatMap((resource) => resource.description)),
	requestOptionsProperty,
];

export class CandidateVerification implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Candidate Verification',
		name: 'candidateVerification',
		icon: {
			light: 'file:../../icons/candidateVerification.svg',
			dark: 'file:../../icons/candidateVerification.dark.svg',
		},
		group: ['transform'],
		// Version 2: every check the provider documents, typed, in Verification → Submit;
		// version 1 keeps the meanings saved workflows were built with (docs/operations.md).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: subtitleExpression(properties),
		description:
			'Create verification forms, add candidates, submit background and identity checks, and fetch their documents',
		defaults: { name: 'Candidate Verification' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties,
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
