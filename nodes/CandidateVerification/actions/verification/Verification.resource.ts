import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as resolveInsufficiency from './resolveInsufficiency.operation';
import * as submit from './submit.operation';

export { resolveInsufficiency, submit };

export const description: INodeProperties[] = [
	operationSelector('verification', [
		{
			name: 'Submit',
			value: 'submit',
			action: ACTIONS.verificationSubmit,
			description:
				'Submit the data of one check for a candidate; creates a submission at the service, which starts (and may bill) the check',
		},
		{
			name: 'Resolve Insufficiency',
			value: 'resolveInsufficiency',
			action: ACTIONS.verificationResolveInsufficiency,
			description:
				'Send the answers and documents a check in INSUFFICIENT_DATA asks for to the service. A row is the request it sends (transaction, organisation, check ID, answers, documents): Duplicate Protection does not send the same row twice.',
		},
	]),
	...submit.description,
	...resolveInsufficiency.description,
];
