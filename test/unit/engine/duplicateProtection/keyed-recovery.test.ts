/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads its fixtures */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../../../nodes/CandidateVerification/CandidateVerification.node';
import { DOB_REQUIRED } from '../../../../nodes/CandidateVerification/actions/profile/create.operation';
import { MODE_NAMES } from '../../../../nodes/CandidateVerification/engine/duplicateProtection/fields';
import * as former from '../../../../nodes/CandidateVerification/engine/duplicateProtection/migration';
import * as say from '../../../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { ACTIONS } from '../../../../nodes/shared/actions';
import { operation as submitOperation } from '../../../../nodes/CandidateVerification/actions/verification/submit.operation';
import { TEST_CREDENTIALS } from '../../../harness/credentials-helper';
import { DeduplicationStore } from '../../../harness/deduplication-store';
import { outputJson, runActionNode, type RunOptions } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * No documented recovery records a row the service never received. Rows keyed before 0.5.0 (a
 * record written by commit 4e03cfc, when a Duplicate Key counted across forms and checks):
 * - Profile → Create: Record Rows as Sent reads the transaction of the ID given (Get Status) and
 *   records the row only when it is on the row's own form;
 * - Submit: the transaction ID cannot tell one check from another, so the text says to read the
 *   check (Get Check Status) before recording it.
 * Version 2's Date of Birth: the editor shows it is required, and the hint gives the order that
 * can be followed (map it, then one Record Rows as Sent run, then Skip Rows Sent Before).
 */
enableMockedNetwork();

const V = '/verification/api/1.0';
const STATUS_PATH = `${V}/transactions/info`;

interface KeyedFixture {
	profile: INodeParameters;
	submit: INodeParameters;
	items: IDataObject[];
	rows: Array<[string, string[]]>;
	staticData: IDataObject;
}

const keyed = JSON.parse(
	readFileSync(path.join(__dirname, '../../../fixtures/keyed-record-4e03cfc.json'), 'utf8'),
) as KeyedFixture;

/** The fixture's Profile → Create on `formId`, with a Date of Birth (required on version 2). */
const profileOn = (formId: string, extra: INodeParameters = {}): INodeParameters => ({
	...keyed.profile,
	formId,
	additionalFields: { dob: '17-05-1994' },
	duplicateProtectionOptions: { inDoubtWaitSeconds: 0 },
	...extra,
});
const recordAsSent = {
	duplicateProtection: 'recordAsSent',
	idFoundAtService: '={{ $json.transactionId }}',
};
/** The fixture's rows with the transaction IDs written back from 0.4.0's run. */
const writtenBack: IDataObject[] = keyed.items.map((item) => ({
	...item,
	transactionId: `TXN-${String(item.name)}`,
}));

/** One workflow whose record 0.4.0 wrote: every run shares its store and static data. */
function workflowOf0_4_0() {
	const store = new DeduplicationStore();
	for (const [scope, values] of keyed.rows) store.rows.set(scope, [...values]);
	const staticData = structuredClone(keyed.staticData);
	return (options: Omit<RunOptions, 'deduplicationStore' | 'staticData'>) =>
		runActionNode({
			typeVersion: 2,
			credentialId: 'cred-v2',
			continueOnFail: true,
			...options,
			deduplicationStore: store,
			staticData,
		});
}

/** Get Status answers each transaction with `data` (by its ID); the requests as sent. */
function transactions(data: (txnId: string) => IDataObject) {
	const { scope, requests } = mockService();
	scope
		.get(STATUS_PATH)
		.query(true)
		.times(10)
		.reply(200, (uri) => {
			const txnId = new URL(uri, 'https://cv.test').searchParams.get('txnId')!;
			return success(data(txnId));
		});
	return requests;
}

/** The current pages' shape: the transaction's `_id` and its form at `form.id._id`. */
const currentPagesOn = (formId: string) => (txnId: string) => ({
	_id: txnId,
	form: { id: { _id: formId, name: 'Onboarding' } },
	verificationList: [{ name: 'bgv-employment', state: 'IN_PROGRESS' }],
});
/** The contract's (and the sandbox's contract mode's) shape: `formId`. */
const contractOn = (formId: string) => (txnId: string) => ({
	transactionId: txnId,
	formId,
	verificationList: [],
});

const statusRead = (txnId: string) => ({
	method: 'GET',
	path: `${STATUS_PATH}?orgId=org-123&txnId=${encodeURIComponent(txnId)}`,
});

function candidates() {
	const { scope, requests } = mockService();
	scope
		.post(/diy-candidate$/)
		.times(5)
		.reply(200, (_uri, body) =>
			success({ transactionId: `TXN-new-${(body as IDataObject).name}` }),
		);
	return requests;
}

const notRecorded = (
	itemIndex: number,
	answer: former.FormerRowAnswer,
	facts: { own?: string; stops?: boolean } = {},
) => {
	const { name, employeeId } = keyed.items[itemIndex];
	return former.formerRowNotRecorded({
		itemIndex,
		key: String(employeeId),
		field: 'transactionId',
		id: `TXN-${String(name)}`,
		what: 'form',
		own: facts.own ?? 'form-2',
		readLabel: ACTIONS.transactionGetStatus,
		answer,
		stops: facts.stops ?? false,
	});
};

describe('Profile → Create, Record Rows as Sent on a row keyed before 0.5.0', () => {
	it.each([
		['the current pages (form.id._id)', currentPagesOn],
		['the contract (formId)', contractOn],
	])(
		'the transaction is on this row’s form in %s: recorded, and the next run outputs alreadySent with that ID',
		async (_shape, shape) => {
			const run = workflowOf0_4_0();
			const reads = transactions(shape('form-1'));
			const created = candidates();

			const recorded = await run({
				items: writtenBack,
				parameters: profileOn('form-1', recordAsSent),
			});
			const next = await run({ items: keyed.items, parameters: profileOn('form-1') });

			expect(reads.map(({ method, path: read }) => ({ method, path: read }))).toEqual([
				statusRead('TXN-Asha Verma'),
				statusRead('TXN-Ravi Kumar'),
			]);
			expect(outputJson(recorded)).toEqual([
				{ transactionId: 'TXN-Asha Verma', recordedAsSent: true },
				{ transactionId: 'TXN-Ravi Kumar', recordedAsSent: true },
			]);
			expect(created).toHaveLength(0);
			expect(
				outputJson(next).map(({ transactionId, alreadySent }) => [transactionId, alreadySent]),
			).toEqual([
				['TXN-Asha Verma', true],
				['TXN-Ravi Kumar', true],
			]);
		},
	);

	it('the transaction is on another form: not recorded, its error says to send it with Send These Rows Again; that sends it once', async () => {
		const run = workflowOf0_4_0();
		const reads = transactions(currentPagesOn('form-1'));
		const created = candidates();
		const row = { items: [writtenBack[0]] };

		const recorded = await run({ ...row, parameters: profileOn('form-2', recordAsSent) });
		const held = await run({ ...row, parameters: profileOn('form-2') });
		const sent = await run({
			...row,
			parameters: profileOn('form-2', { duplicateProtection: 'sendAgain' }),
		});

		expect(reads).toHaveLength(1);
		const { message, description } = notRecorded(0, { on: ['form-1'] });
		expect(outputJson(recorded)).toEqual([{ error: message, description }]);
		expect(description).toContain(`Duplicate Protection → ${MODE_NAMES.sendAgain}`);
		// Nothing was recorded: the row is still held in doubt under its key before 0.5.0.
		expect(outputJson(held)[0]).toMatchObject({ inDoubt: true });
		expect(created.map(({ path: sentTo }) => sentTo)).toEqual([
			`${V}/ekyc-forms/form-2/diy-candidate`,
		]);
		expect(outputJson(sent)).toEqual([
			{ transactionId: 'TXN-new-Asha Verma', formId: 'form-2', name: 'Asha Verma' },
		]);
	});

	it('On Error → Stop: the run stops at the row on another form; the row on this form stays recorded', async () => {
		const run = workflowOf0_4_0();
		transactions((txnId) => contractOn(txnId === 'TXN-Ravi Kumar' ? 'form-9' : 'form-1')(txnId));

		const recorded = await run({
			items: writtenBack,
			parameters: profileOn('form-1', recordAsSent),
			continueOnFail: false,
		});
		const next = await run({ items: keyed.items, parameters: profileOn('form-1') });

		expect(outputJson(next)[1]).toMatchObject({ inDoubt: true });
		const { message, description } = notRecorded(
			1,
			{ on: ['form-9'] },
			{
				own: 'form-1',
				stops: true,
			},
		);
		expect([recorded.error?.message, recorded.error?.description]).toEqual([message, description]);
		expect(outputJson(next)[0]).toMatchObject({
			transactionId: 'TXN-Asha Verma',
			alreadySent: true,
		});
	});

	it('an answer that names no form: nothing recorded, the error names what to compare at the service', async () => {
		const run = workflowOf0_4_0();
		transactions((txnId) => ({ transactionId: txnId, verificationList: [] }));

		const recorded = await run({
			items: [writtenBack[0]],
			parameters: profileOn('form-1', recordAsSent),
		});
		const held = await run({ items: [keyed.items[0]], parameters: profileOn('form-1') });

		// Nothing was recorded: the row is still held in doubt under its key before 0.5.0.
		expect(outputJson(held)[0]).toMatchObject({ inDoubt: true });
		const { message, description } = notRecorded(0, { namesNone: true }, { own: 'form-1' });
		expect(outputJson(recorded)).toEqual([{ error: message, description }]);
		expect(description).toContain(
			'Compare at the service (its dashboard): the form of transactionId TXN-Asha Verma with this row’s form, form-1.',
		);
	});

	it('no Organisation ID in the node or the credential: nothing read, nothing recorded, the error says what to set and compare', async () => {
		const run = workflowOf0_4_0();
		const reads = transactions(contractOn('form-1'));
		const withoutOrgId = { ...TEST_CREDENTIALS, orgId: '' };

		const recorded = await run({
			items: [writtenBack[0]],
			parameters: profileOn('form-1', recordAsSent),
			credentials: withoutOrgId,
		});
		const held = await run({ items: [keyed.items[0]], parameters: profileOn('form-1') });

		// Nothing was recorded: the row is still held in doubt under its key before 0.5.0.
		expect(outputJson(held)[0]).toMatchObject({ inDoubt: true });
		expect(reads).toHaveLength(0);
		const { message, description } = notRecorded(
			0,
			{ lacks: 'Organisation ID' },
			{ own: 'form-1' },
		);
		expect(outputJson(recorded)).toEqual([{ error: message, description }]);
	});

	it('the node’s Organisation ID is read before the credential’s', async () => {
		const run = workflowOf0_4_0();
		const reads = transactions(contractOn('form-1'));

		await run({
			items: [writtenBack[0]],
			parameters: profileOn('form-1', { ...recordAsSent, orgId: 'org-of-node' }),
		});

		expect(reads.map(({ path: read }) => read)).toEqual([
			`${STATUS_PATH}?orgId=org-of-node&txnId=TXN-Asha%20Verma`,
		]);
	});

	it('a read that fails: nothing recorded, the error names the operation and the service', async () => {
		const run = workflowOf0_4_0();
		const { scope } = mockService();
		scope.get(STATUS_PATH).query(true).reply(404, { code: -1, message: 'Transaction not found' });

		const recorded = await run({
			items: [writtenBack[0]],
			parameters: profileOn('form-1', {
				...recordAsSent,
				requestOptions: { transientRetries: 0 },
			}),
		});
		const held = await run({ items: [keyed.items[0]], parameters: profileOn('form-1') });

		const [output] = outputJson(recorded);
		expect(String(output.error)).toMatch(
			new RegExp(
				`^Item 0 was not recorded: reading transactionId TXN-Asha Verma failed: ${ACTIONS.transactionGetStatus}`,
			),
		);
		expect(String(output.error)).toContain('Transaction not found');
		expect(outputJson(held)[0]).toMatchObject({ inDoubt: true });
	});
});

describe('Submit, a check found under a key recorded before 0.5.0', () => {
	it('the in-doubt text says to read the check with Get Check Status, never to record from the transaction ID alone', async () => {
		const run = workflowOf0_4_0();
		const { scope, requests } = mockService();
		scope.post(`${V}/bgv/diy`).times(2).reply(200, success());
		const items = writtenBack.map((item) => ({ ...item }));

		const held = await run({ items, parameters: keyed.submit });

		expect(requests).toHaveLength(0);
		const texts = items.map(({ transactionId, employeeId }, itemIndex) =>
			former.keyedBefore({
				label: submitOperation.label,
				itemIndex,
				key: String(employeeId),
				field: 'transactionId',
				keptId: String(transactionId),
				where: say.whereToCheck([transactionId], 'transactionStatus'),
				stops: false,
				how: { kind: 'readCheck', transactionId: String(transactionId), check: 'bgv-employment' },
			}),
		);
		expect(outputJson(held)).toEqual(
			texts.map(({ message, description }) => ({ error: message, description, inDoubt: true })),
		);
		const [{ description }] = texts;
		expect(description).toContain(
			'Read this check with Transaction → Get Check Status (transaction TXN-Asha Verma, check bgv-employment). It shows this check’s submitted data: run only this row (item 0) with Duplicate Protection → Record Rows as Sent. It does not: run only this row with Duplicate Protection → Send These Rows Again.',
		);
		expect(description).not.toMatch(/another form’s or check’s|written back/);
	});
});

describe('Version 2’s Date of Birth', () => {
	const { description } = new CandidateVerification();
	const profileCreate = { resource: 'profile', operation: 'create' };
	const shown = (typeVersion: number) =>
		description.properties
			.filter((property) =>
				NodeHelpers.displayParameter(
					profileCreate,
					property,
					{ typeVersion } as INode,
					description,
					profileCreate,
				),
			)
			.map((property) => property.name);

	it('a notice above Additional Fields on version 2 only; the field stays additionalFields.dob and says it is required', () => {
		const v2 = shown(2);
		expect(v2.indexOf('dateOfBirthNotice')).toBe(v2.indexOf('additionalFields') - 1);
		expect(shown(1)).not.toContain('dateOfBirthNotice');
		const notice = description.properties.find(({ name }) => name === 'dateOfBirthNotice')!;
		expect(notice.displayName).toContain('Leave candidates whose date of birth is unknown out');
		const additional = description.properties.find(
			({ name, displayOptions }) =>
				name === 'additionalFields' && displayOptions?.show?.resource?.includes('profile'),
		)!;
		const dob = (additional.options as Array<{ name: string; description?: string }>).find(
			({ name }) => name === 'dob',
		)!;
		expect(dob.description).toMatch(/^Required on node version 2/);
	});

	it('the hint gives the order that can be followed: map Date of Birth, then one Record Rows as Sent run with the IDs, then Skip Rows Sent Before; unknown dates of birth are left out', async () => {
		const result = await runActionNode({
			items: [{ name: 'Asha Verma' }],
			parameters: { ...profileOn('form-1'), additionalFields: {}, duplicateKey: '' },
			typeVersion: 2,
			continueOnFail: true,
		});

		const [refused] = outputJson(result);
		expect(String(refused.description)).toContain(DOB_REQUIRED.hint);
		const { hint } = DOB_REQUIRED;
		const order = ['map it', MODE_NAMES.recordAsSent, MODE_NAMES.skipSent].map((step) =>
			hint.indexOf(step),
		);
		expect(order.every((at, index) => at >= 0 && (index === 0 || at > order[index - 1]))).toBe(
			true,
		);
		expect(hint).not.toContain('record them first');
		expect(hint).toContain('Leave rows whose date of birth is unknown out of this node’s input');
	});
});
