import nock from 'nock';
import type { IDataObject, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';

import { CandidateVerification } from '../../../../nodes/CandidateVerification/CandidateVerification.node';
import { RESOURCES } from '../../../../nodes/CandidateVerification/actions/router';
import {
	MODE_NAMES,
	ONE_OFF_MODES,
	ONE_OFF_NOTICE,
	type DuplicateMode,
} from '../../../../nodes/CandidateVerification/engine/duplicateProtection/fields';
import * as say from '../../../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { DeduplicationStore } from '../../../harness/deduplication-store';
import { CANDIDATE_PATH, keyedCreateProfile } from '../../../harness/keyed-profile';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * The one-off tools (Send These Rows Again, Record Rows as Sent, Forget All, Release Stuck Lock)
 * act only where a person chose them: in an execution started in the editor (n8n's `manual` mode).
 * Left selected, a production execution stops at the node before sending or recording anything.
 */
enableMockedNetwork();

const NODE_ROW = 'wf-test|n:00000000-0000-4000-8000-000000000002';
const OTHER_MODES: WorkflowExecuteMode[] = ['trigger', 'webhook', 'retry', 'integrated', 'chat'];

let runs = 0;
const row = () => ({
	name: `One-off ${++runs}`,
	key: `one-off-${runs}`,
	transactionId: `TXN-F-${runs}`,
});

function parametersFor(mode: DuplicateMode, extra: IDataObject = {}): INodeParameters {
	return {
		...keyedCreateProfile,
		duplicateProtection: mode,
		idFoundAtService: '={{ $json.transactionId }}',
		...extra,
	};
}

/** A workflow whose record holds one row sent before; the service accepts any candidate. */
async function recordWithOneRow() {
	nock.cleanAll();
	const store = new DeduplicationStore();
	const { scope, requests } = mockService();
	scope
		.post(CANDIDATE_PATH)
		.times(10)
		.reply(200, (_uri, body) => success({ transactionId: `TXN-${(body as IDataObject).name}` }));
	const sent = row();
	const first = await runActionNode({
		items: [sent],
		parameters: keyedCreateProfile,
		deduplicationStore: store,
	});
	expect([first.error?.message, requests.length]).toEqual([undefined, 1]);
	return { store, requests, sent, before: [...store.valuesOf(NODE_ROW)] };
}

/** The operations that declare duplicate protection: each has its own one-off tools' fields. */
const PROTECTED_OPERATIONS = Object.values(RESOURCES).flatMap(({ operations }) =>
	Object.values(operations).filter(({ operation }) => operation.duplicateProtection),
).length;

describe('One-off tools act where a person chose them', () => {
	describe.each(ONE_OFF_MODES.map((mode) => [MODE_NAMES[mode], mode] as const))(
		'%s',
		(_name, mode) => {
			it.each(OTHER_MODES)(
				'in a "%s" execution it stops before sending or recording anything, whatever On Error says',
				async (executionMode) => {
					for (const continueOnFail of [false, true]) {
						const { store, requests, sent, before } = await recordWithOneRow();
						const result = await runActionNode({
							items: [sent, row()],
							parameters: parametersFor(mode),
							deduplicationStore: store,
							mode: executionMode,
							continueOnFail,
						});
						const { message, description } = say.oneOffOutsideEditor(
							MODE_NAMES[mode],
							executionMode,
						);
						// Under Continue each item says so (never passed through as if resolved).
						if (continueOnFail)
							expect(outputJson(result)).toEqual(
								[0, 1].map(() => ({ error: message, description })),
							);
						else
							expect([result.error?.message, result.error?.description]).toEqual([
								message,
								description,
							]);
						expect(requests).toHaveLength(1);
						expect(store.valuesOf(NODE_ROW)).toEqual(before);
					}
				},
			);

			it('acts in a production execution with Act in Any Execution on', async () => {
				const { store, sent } = await recordWithOneRow();
				const result = await runActionNode({
					items: [sent],
					parameters: parametersFor(mode, { actInAnyExecution: true }),
					deduplicationStore: store,
					mode: 'trigger',
				});
				expect(result.error).toBeUndefined();
			});
		},
	);

	it('a manual execution acts: Send These Rows Again sends the row again', async () => {
		const { store, requests, sent } = await recordWithOneRow();
		const result = await runActionNode({
			items: [sent],
			parameters: parametersFor('sendAgain'),
			deduplicationStore: store,
		});
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
	});

	it('a mode from an expression adds an execution hint saying how to switch back', async () => {
		const { store, sent } = await recordWithOneRow();
		const result = await runActionNode({
			items: [sent],
			parameters: parametersFor('recordAsSent', { duplicateProtection: '={{ "recordAsSent" }}' }),
			deduplicationStore: store,
		});
		expect(result.error).toBeUndefined();
		expect(result.task.hints).toEqual([
			{
				message: say.oneOffFromExpression(MODE_NAMES.recordAsSent),
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});

	it('the editor shows a notice while a one-off tool is selected, ending with how to switch back', () => {
		const notices = new CandidateVerification().description.properties.filter(
			({ name }) => name === 'oneOffNotice',
		);
		expect(notices.length).toBe(PROTECTED_OPERATIONS);
		for (const notice of notices) {
			expect(notice.displayName).toBe(`${ONE_OFF_NOTICE} ${say.SWITCH_BACK}`);
			expect(notice.displayOptions?.show?.duplicateProtection).toEqual(ONE_OFF_MODES);
		}
	});

	it('Act in Any Execution names the risk of every one-off tool, Release Stuck Lock’s lock included', () => {
		const options = new CandidateVerification().description.properties.filter(
			({ name }) => name === 'actInAnyExecution',
		);
		expect(options.length).toBe(PROTECTED_OPERATIONS);
		for (const { description } of options) {
			expect(description).toContain(
				'or deletes the lock, which a live execution may hold (Release Stuck Lock).',
			);
			for (const mode of ONE_OFF_MODES) expect(description).toContain(`(${MODE_NAMES[mode]})`);
		}
	});
});
