/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads its fixtures */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nock from 'nock';
import type { IDataObject, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';

import { DeduplicationStore } from '../../../harness/deduplication-store';
import { NODE_NAME, outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork } from '../../../harness/service-mock';

/**
 * Records written by the baseline (issue 50's landing code, commit 20deff4) stay recognised: each
 * fixture is the deduplication store and static data after a run the service accepted
 * (test/fixtures/baseline-records-20deff4.how.txt). The same rows run again come out alreadySent
 * with the ID the fixture recorded, and no request leaves the node.
 */
enableMockedNetwork();

const FOLDER = path.join(__dirname, '../../../fixtures/baseline-records-20deff4');

/** Each protected operation and the output field that carries the ID the service gave. */
const ID_FIELDS = {
	'form-create': '_id',
	'profile-create': 'transactionId',
	'webhook-config-create': 'id',
	'verification-submit': 'transactionId',
	'verification-resolve-insufficiency': 'transactionId',
} as const;

interface BaselineFixture {
	operation: keyof typeof ID_FIELDS;
	typeVersion: number;
	mode: WorkflowExecuteMode;
	parameters: INodeParameters;
	items: IDataObject[];
	outputs: IDataObject[];
	rows: Array<[string, string[]]>;
	staticData: IDataObject;
}

const fixtures = Object.keys(ID_FIELDS).flatMap((operation) =>
	[1, 2].flatMap((version) =>
		['unkeyed', 'keyed'].map((key) => `${operation}-v${version}-${key}.json`),
	),
);

function read(file: string): BaselineFixture {
	return JSON.parse(readFileSync(path.join(FOLDER, file), 'utf8')) as BaselineFixture;
}

/** When the fixture's run sent each ID: the [sent at, ID] pairs its static data keeps, per node. */
function sentAtById({ staticData }: BaselineFixture): Map<unknown, unknown> {
	const perNode = ((staticData.global as IDataObject).candidateVerificationSentRows ??
		{}) as Record<string, Record<string, [string, string]>>;
	const kept = Object.values(perNode).flatMap((rows) => Object.values(rows));
	return new Map(kept.map(([sentAt, id]) => [id, sentAt]));
}

/** Every request the node makes: none has an interceptor, so each is counted here and refused. */
function countRequests() {
	const requests: string[] = [];
	const count = (request: { method?: string; path?: string }) =>
		requests.push(`${request.method} ${request.path}`);
	nock.emitter.on('no match', count);
	return { requests, stop: () => nock.emitter.removeListener('no match', count) };
}

/** The fixture's rows run again on its record, with `staticData`, counting the requests. */
async function runAgain(fixture: BaselineFixture, staticData: IDataObject) {
	const store = new DeduplicationStore();
	for (const [scope, hashes] of fixture.rows) store.rows.set(scope, [...hashes]);
	const { requests, stop } = countRequests();
	const again = await runActionNode({
		items: fixture.items,
		parameters: fixture.parameters,
		typeVersion: fixture.typeVersion,
		mode: fixture.mode,
		deduplicationStore: store,
		staticData,
	}).finally(stop);
	return { again, requests };
}

it.each(fixtures)(
	'%s: every row comes out alreadySent with its recorded ID; nothing is sent',
	async (file) => {
		const fixture = read(file);
		const idField = ID_FIELDS[fixture.operation];
		const sentAt = sentAtById(fixture);
		const { again, requests } = await runAgain(fixture, structuredClone(fixture.staticData));

		expect(requests).toEqual([]);
		expect(again.error).toBeUndefined();
		expect(outputJson(again)).toEqual(
			fixture.outputs.map((recorded) =>
				expect.objectContaining({
					[idField]: recorded[idField],
					alreadySent: true,
					sentAt: sentAt.get(recorded[idField]),
				}),
			),
		);
	},
);

it("IDs 0.2.0 kept in its place (the node's static data, keyed by the node's name) are still read", async () => {
	const fixture = read('form-create-v1-unkeyed.json');
	const staticData = structuredClone(fixture.staticData);
	const global = staticData.global as IDataObject;
	const perNode = global.candidateVerificationSentRows as Record<string, IDataObject>;
	staticData[`node:${NODE_NAME}`] = { sentRows: Object.assign({}, ...Object.values(perNode)) };
	delete global.candidateVerificationSentRows;
	const sentAt = sentAtById(fixture);

	const { again, requests } = await runAgain(fixture, staticData);

	expect(requests).toEqual([]);
	expect(outputJson(again)).toEqual(
		fixture.outputs.map((recorded) =>
			expect.objectContaining({
				_id: recorded._id,
				alreadySent: true,
				sentAt: sentAt.get(recorded._id),
			}),
		),
	);
});
