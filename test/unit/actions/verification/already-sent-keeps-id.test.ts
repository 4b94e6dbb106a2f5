import type { INodeParameters } from 'n8n-workflow';

import { DeduplicationStore } from '../../../harness/deduplication-store';
import { otherProcess } from '../../../harness/other-process';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * Submit's and Resolve's `alreadySent` outputs keep the transaction ID the item gave, also where
 * this process never kept the row's ID (sent by another process, a manual execution's static data).
 */
enableMockedNetwork();

const V = '/verification/api/1.0';

it.each([
	[
		'Submit',
		`${V}/bgv/diy`,
		{
			resource: 'verification',
			operation: 'submit',
			transactionId: 'TXN-77',
			verificationName: 'bgv-social-media',
			data: '{"linkedinUrl":"https://www.linkedin.com/in/asha"}',
		},
		{ transactionId: 'TXN-77', verificationName: 'bgv-social-media', submitted: true },
	],
	[
		'Resolve Insufficiency',
		`${V}/bgv/insufficiency`,
		{
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId: 'TXN-78',
			verificationId: 'bgv-employment',
			answers: { answer: [{ insufficiencyId: 'ins-1', value: 'Acme Ltd' }] },
		},
		{ transactionId: 'TXN-78', verificationId: 'bgv-employment', resolved: true },
	],
])(
	'%s: a row sent by another process comes out alreadySent with the transaction ID given',
	async (_name, path, parameters, output) => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(path).reply(200, success());
		const options = {
			parameters: parameters as INodeParameters,
			deduplicationStore: store,
			typeVersion: 2,
		};
		await otherProcess()(options);
		const again = await runActionNode(options);

		expect(requests).toHaveLength(1);
		expect(outputJson(again)).toEqual([{ ...output, alreadySent: true, sentAt: null }]);
	},
);
