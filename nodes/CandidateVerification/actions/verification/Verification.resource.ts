import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as submit from './submit.operation';

export { submit };

export const description: INodeProperties[] = [
	operationSelector('verification', [
		{
			name: 'Submit',
			value: 'submit',
			action: ACTIONS.verificationSubmit,
			description:
				'Submit the data of one check for a candidate; creates a submission at the service, which starts (and may bill) the check',
		},
	]),
	...submit.description,
];
