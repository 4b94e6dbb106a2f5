import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DeduplicationStore } from '../../../harness/deduplication-store';
import { outputJson, runActionNode, type RunOptions } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * From a version 1 node to a version 2 node without creating anything again (docs/duplicate-
 * protection.md, "Moving a node to version 2"). n8n keys a node's record by its ID, so the new node
 * starts empty: the rows the old node holds in doubt are resolved first, then one manual run of the
 * new node with Record Rows as Sent over the written-back IDs adopts every row.
 */
enableMockedNetwork();

const V = '/verification/api/1.0';
const CANDIDATE_PATH = `${V}/ekyc-forms/form-1/diy-candidate`;
const SUBMIT_PATH = `${V}/bgv/diy`;
const OLD_NODE = '00000000-0000-4000-8000-0000000000a1';
const NEW_NODE = '00000000-0000-4000-8000-0000000000b2';

/** One workflow: its store and static data shared by every run. */
function workflow() {
	const store = new DeduplicationStore();
	const staticData: IDataObject = {};
	return (options: Omit<RunOptions, 'deduplicationStore' | 'staticData'>) =>
		runActionNode({ ...options, deduplicationStore: store, staticData });
}

const profile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: 'form-1',
	name: '={{ $json.name }}',
	gender: 'Female',
	// Version 2 requires a Date of Birth.
	additionalFields: { mobile: '={{ $json.mobile }}', dob: '17-05-1994' },
	duplicateProtectionOptions: { inDoubtWaitSeconds: 0 },
	requestOptions: { transientRetries: 0 },
};
const adopt = (parameters: INodeParameters): INodeParameters => ({
	...parameters,
	duplicateProtection: 'recordAsSent',
	idFoundAtService: '={{ $json.transactionId }}',
});

describe('Moving a node to version 2 creates nothing again', () => {
	it('Profile → Create: the old node’s row in doubt resolved, one manual adoption run, then a production run sends nothing', async () => {
		const run = workflow();
		const rows = ['Asha Verma', 'Ravi Kumar', 'Meera Iyer'].map((name, index) => ({
			name,
			mobile: `+9198765000${index}`,
		}));
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(10)
			.reply((_uri, body, answer) => {
				const { name } = body as IDataObject;
				// Meera's answer is lost after the service created her.
				if (name === 'Meera Iyer' && requests.length <= 3) {
					answer(
						Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
						undefined as never,
					);
				} else answer(null, [200, success({ transactionId: `TXN-${String(name)}` })]);
			});
		const old = { nodeId: OLD_NODE, typeVersion: 1 };
		const sent = await run({ ...old, items: rows, parameters: profile, continueOnFail: true });
		expect(outputJson(sent)[2]).toMatchObject({ inDoubt: true });
		// The sheet: the IDs written back, Meera's found in the service's dashboard.
		const sheet = rows.map((row) => ({ ...row, transactionId: `TXN-${row.name}` }));

		// 1. The old node's row in doubt, resolved in the editor.
		await run({ ...old, items: [sheet[2]], parameters: adopt(profile) });
		// 2. The new node: one manual run adopts every row of the sheet.
		const new2 = { nodeId: NEW_NODE, typeVersion: 2 };
		const adopted = await run({ ...new2, items: sheet, parameters: adopt(profile) });
		expect(outputJson(adopted).map((json) => json.recordedAsSent)).toEqual([true, true, true]);
		// 3. Back to Skip Rows Sent Before: a production run creates nothing again.
		const next = await run({ ...new2, items: sheet, parameters: profile, mode: 'trigger' });

		expect(requests).toHaveLength(3);
		expect(
			outputJson(next).map(({ transactionId, alreadySent }) => [transactionId, alreadySent]),
		).toEqual(sheet.map(({ transactionId }) => [transactionId, true]));
	});

	it('a row whose ID was never written back, left out of the adoption, is sent again by the new node (the documented risk)', async () => {
		const run = workflow();
		const row = { name: 'Kiran Rao', mobile: '+919876500099' };
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, success({ transactionId: 'TXN-Kiran' }));
		await run({ nodeId: OLD_NODE, typeVersion: 1, items: [row], parameters: profile });
		await run({ nodeId: NEW_NODE, typeVersion: 2, items: [row], parameters: profile });
		expect(requests).toHaveLength(2);
	});

	it('Submit: Record Rows as Sent takes one transaction ID on the checks of one candidate; the new node then submits nothing again', async () => {
		const run = workflow();
		const submit = (verificationName: string): INodeParameters => ({
			resource: 'verification',
			operation: 'submit',
			transactionId: '={{ $json.transactionId }}',
			verificationName,
			mappingMode: 'autoMapInputData',
		});
		// Map Automatically: the check's data from the column named data.
		const columns = { data: { linkedinUrl: 'https://www.linkedin.com/in/asha' } };
		const checks = ['bgv-social-media', 'bgv-global-database-check'];
		// The sheet: one row per candidate and check; each candidate's checks share its transaction ID.
		const sheet = checks.flatMap((check) =>
			['TXN-1', 'TXN-2'].map((transactionId) => ({ transactionId, check, ...columns })),
		);
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).times(10).reply(200, success());
		// The version 1 node: one run per check, the data as JSON.
		for (const check of checks) {
			const items = sheet.filter((row) => row.check === check);
			const parameters: INodeParameters = {
				...submit(check),
				mappingMode: undefined,
				data: JSON.stringify(columns.data),
			};
			const sent = await run({ nodeId: OLD_NODE, typeVersion: 1, items, parameters });
			expect(sent.error).toBeUndefined();
		}
		expect(requests).toHaveLength(4);

		const new2 = { nodeId: NEW_NODE, typeVersion: 2 };
		const adopted = await run({
			...new2,
			items: sheet,
			parameters: adopt(submit('={{ $json.check }}')),
		});
		expect(adopted.error).toBeUndefined();
		expect(outputJson(adopted).map((json) => json.recordedAsSent)).toEqual([
			true,
			true,
			true,
			true,
		]);
		const next = await run({
			...new2,
			items: sheet,
			parameters: submit('={{ $json.check }}'),
			mode: 'trigger',
		});

		expect(requests).toHaveLength(4);
		expect(
			outputJson(next).map(({ transactionId, alreadySent }) => [transactionId, alreadySent]),
		).toEqual(sheet.map(({ transactionId }) => [transactionId, true]));
	});
});
