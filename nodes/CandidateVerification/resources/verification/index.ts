import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/descriptions';
import { verificationSubmitFields } from './fields';
import { verificationSubmitRouting } from './submit';

export const verificationDescription: INodeProperties[] = [
	operationSelector('verification', [
		{
			name: 'Submit',
			value: 'submit',
			action: 'Submit verification data for a candidate',
			description: 'Submit the data of one check for a candidate (transaction)',
			routing: verificationSubmitRouting,
		},
	]),
	...verificationSubmitFields,
];
