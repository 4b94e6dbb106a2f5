import type { INodeParameters } from 'n8n-workflow';

import { DOB_REQUIRED } from '../../../../nodes/CandidateVerification/actions/profile/create.operation';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * Two people are never merged silently: on version 2, Profile → Create requires a Date of Birth (as
 * the provider's current page does), so two candidates with the same name and gender are two rows.
 */
enableMockedNetwork();

const PATH = '/verification/api/1.0/ekyc-forms/form-1/diy-candidate';
const parameters: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: 'form-1',
	name: '={{ $json.name }}',
	gender: 'Female',
	additionalFields: { dob: '={{ $json.dob }}' },
};

it('version 2: a row without a Date of Birth is refused before anything is sent, naming the field and what to do', async () => {
	const { scope, requests } = mockService();
	scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));
	const result = await runActionNode({
		items: [{ name: 'Asha Verma', dob: '17-05-1994' }, { name: 'Asha Verma' }],
		parameters,
		typeVersion: 2,
		continueOnFail: true,
	});

	expect(requests).toHaveLength(1);
	const [, refused] = outputJson(result);
	expect(refused.error).toBe(`Invalid "Date of Birth" in item 1: ${DOB_REQUIRED.text}`);
	expect(String(refused.description)).toContain(DOB_REQUIRED.hint);
});

it('version 2: two people with the same name and gender and different dates of birth are two rows, both created', async () => {
	const { scope, requests } = mockService();
	scope
		.post(PATH)
		.times(2)
		.reply(200, success({ transactionId: 'TXN-1' }));
	const result = await runActionNode({
		items: [
			{ name: 'Asha Verma', dob: '17-05-1994' },
			{ name: 'Asha Verma', dob: '02-01-1990' },
		],
		parameters,
		typeVersion: 2,
	});
	expect(result.error).toBeUndefined();
	expect(requests).toHaveLength(2);
});

it('version 1 keeps its meaning: a row without a Date of Birth is sent', async () => {
	const { scope, requests } = mockService();
	scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));
	const result = await runActionNode({
		items: [{ name: 'Asha Verma' }],
		parameters,
		typeVersion: 1,
	});
	expect(result.error).toBeUndefined();
	expect(requests).toHaveLength(1);
});
