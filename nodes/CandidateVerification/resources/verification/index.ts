import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { verificationSubmitFields } from './fields';
import { verificationSubmitRouting } from './submit';

export const verificationDescription: INodeProperties[] = [
	operationSelector('verification', [
		{
			name: 'Submit',
			value: 'submit',
			action: ACTIONS.verificationSubmit,
			description:
				'Submit the data of one check for a candidate; creates a submission at the service, which starts (and may bill) the check',
			routing: verificationSubmitRouting,
		},
	]),
	...verificationSubmitFields,
];
