/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads its fixture */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as former from '../../../../nodes/CandidateVerification/engine/duplicateProtection/migration';
import * as say from '../../../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { operation as resolveInsufficiencyOperation } from '../../../../nodes/CandidateVerification/actions/verification/resolveInsufficiency.operation';
import { DeduplicationStore } from '../../../harness/deduplication-store';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * Resolve Insufficiency after the upgrade from 0.4.0: a resolution recorded then (without its
 * document URLs) is named in doubt, never silently alreadySent, whether the document is the same
 * upload or a new one for a question raised again; a person tells which.
 */
enableMockedNetwork();

const fixture = JSON.parse(
	readFileSync(path.join(__dirname, '../../../fixtures/resolve-record-4e03cfc.json'), 'utf8'),
) as { resolve: INodeParameters; rows: Array<[string, string[]]>; staticData: IDataObject };

function recorded() {
	const store = new DeduplicationStore();
	for (const [scope, values] of fixture.rows) store.rows.set(scope, [...values]);
	return { deduplicationStore: store, staticData: structuredClone(fixture.staticData) };
}

const withUpload = (url: string): INodeParameters => {
	const documents = fixture.resolve.documents as { document: IDataObject[] };
	return { ...fixture.resolve, documents: { document: [{ ...documents.document[0], url }] } };
};

it.each([
	['a new upload (a question raised again)', 'https://files.example/upload-2.pdf'],
	['the same upload', 'https://files.example/upload-1.pdf'],
])(
	'%s, recorded by 0.4.0 without its URL: named in doubt, not sent, never alreadySent',
	async (_what, url) => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/bgv/insufficiency').reply(200, success());

		const result = await runActionNode({
			parameters: withUpload(url),
			typeVersion: 2,
			continueOnFail: true,
			...recorded(),
		});

		expect(requests).toHaveLength(0);
		const { message, description } = former.documentsBefore({
			label: resolveInsufficiencyOperation.label,
			itemIndex: 0,
			where: say.whereToCheck(['TXN-9'], 'checkStatus'),
			stops: false,
		});
		expect(outputJson(result)).toEqual([{ error: message, description, inDoubt: true }]);
	},
);

it('Send These Rows Again (a person chose: a new document) sends it once; later runs skip it', async () => {
	const { scope, requests } = mockService();
	scope.post('/verification/api/1.0/bgv/insufficiency').times(2).reply(200, success());
	const record = recorded();
	const parameters = withUpload('https://files.example/upload-2.pdf');

	await runActionNode({
		parameters: { ...parameters, duplicateProtection: 'sendAgain' },
		typeVersion: 2,
		...record,
	});
	const next = await runActionNode({ parameters, typeVersion: 2, ...record });

	expect(requests).toHaveLength(1);
	expect(outputJson(next)[0]).toMatchObject({ transactionId: 'TXN-9', alreadySent: true });
});

it('a resolution without documents keeps its 0.4.0 identity: alreadySent, nothing sent', async () => {
	const store = new DeduplicationStore();
	const { scope, requests } = mockService();
	scope.post('/verification/api/1.0/bgv/insufficiency').times(2).reply(200, success());
	const answersOnly = { ...fixture.resolve, documents: {} };
	await runActionNode({ parameters: answersOnly, typeVersion: 2, deduplicationStore: store });
	const again = await runActionNode({
		parameters: answersOnly,
		typeVersion: 2,
		deduplicationStore: store,
	});
	expect(requests).toHaveLength(1);
	expect(outputJson(again)[0]).toMatchObject({ alreadySent: true });
});
