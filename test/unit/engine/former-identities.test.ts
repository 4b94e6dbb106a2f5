import type { IDataObject } from 'n8n-workflow';

import {
	FORMER_IDENTITIES,
	FormerLookups,
	type FormerIdentity,
	type RowFacts,
} from '../../../nodes/CandidateVerification/engine/duplicateProtection/migration';
import { rowIdentity } from '../../../nodes/CandidateVerification/engine/duplicateProtection/identity';

const FACTS: RowFacts = {
	environment: 'sandbox',
	credentialId: 'cred-1',
	baseUrl: 'https://cv.test',
	method: 'POST',
	path: '/forms/{formId}/candidates',
	request: { body: { name: 'Asha' } },
	row: { body: { name: 'Asha' } },
	duplicateKey: 'EMP-1',
};

/** The workflow's static data, global section by key. */
function staticData(sections: Record<string, IDataObject> = {}) {
	return (key: string, toWrite = false) => {
		if (toWrite) sections[key] ??= {};
		return sections[key];
	};
}

/** A second former identity, as the next one will be added: one entry. */
const KEY_ONLY: FormerIdentity = {
	name: 'key only',
	kind: 'sameRow',
	mayHoldRows: () => true,
	identityOf: ({ environment, duplicateKey }) =>
		duplicateKey === undefined ? undefined : rowIdentity([environment], null, duplicateKey),
	ends: { marks: ['m:key-1', 'm:key-2'], stateKey: 'keyOnly' },
};

describe('Former identities (migration.ts)', () => {
	it('0.3.x: a version 1 node looks rows up under the host and the request as sent; a version 2 node does not', () => {
		const [former] = FORMER_IDENTITIES;
		const v1 = new FormerLookups(staticData(), 'node-1', 1);
		v1.note('row', FACTS);
		expect(v1.of('row')).toEqual([
			rowIdentity(['sandbox', 'https://cv.test', 'POST', FACTS.path], FACTS.request, 'EMP-1'),
		]);
		expect(former.identityOf(FACTS)).toBe(v1.of('row')[0]);
		expect(v1.marks()).toEqual(['m:0.3.x-rows-are-older']);
		expect([v1.extraValuesPerRow, v1.marksKept]).toEqual([2, 2]);

		const v2 = new FormerLookups(staticData(), 'node-1', 2);
		v2.note('row', FACTS);
		expect([v2.of('row'), v2.marks(), v2.extraValuesPerRow, v2.marksKept]).toEqual([[], [], 0, 0]);
	});

	it('a phase ends once its mark, seen before, is added again; a value looked up before counts no more', () => {
		const sections: Record<string, IDataObject> = {};
		const lookups = new FormerLookups(staticData(sections), 'node-1', 1);
		lookups.note('row', FACTS);
		lookups.claimed(
			['row'],
			() => true,
			() => false,
		);
		expect(sections.candidateVerificationFormerRows).toEqual({
			'node-1': { phasesEnded: 0, markSeen: true },
		});
		expect(lookups.of('row')).toHaveLength(1);
		lookups.claimed(
			['row'],
			() => false,
			() => true,
		);
		expect(sections.candidateVerificationFormerRows).toEqual({
			'node-1': { phasesEnded: 1, markSeen: false },
		});
		expect(lookups.of('row')).toEqual([]);

		const next = new FormerLookups(staticData(sections), 'node-1', 1);
		next.note('row', FACTS);
		expect([next.of('row'), next.marks()]).toEqual([[], ['m:0.3.x-lookups-are-older']]);
	});

	it('another former identity is one entry: looked up after the ones before it, with its own phases', () => {
		const lookups = new FormerLookups(staticData(), 'node-1', 1, [...FORMER_IDENTITIES, KEY_ONLY]);
		lookups.note('row', FACTS);
		expect(lookups.of('row')).toEqual([
			FORMER_IDENTITIES[0].identityOf(FACTS),
			KEY_ONLY.identityOf(FACTS),
		]);
		expect(lookups.marks()).toEqual(['m:0.3.x-rows-are-older', 'm:key-1']);
		expect([lookups.extraValuesPerRow, lookups.marksKept]).toEqual([4, 4]);
		lookups.note('unkeyed', { ...FACTS, duplicateKey: undefined });
		expect(lookups.of('unkeyed')).toHaveLength(1);
	});
});

describe('Keys recorded before 0.5.0 (keyOnly)', () => {
	const keyed: RowFacts = { ...FACTS, scope: { formId: 'form-1' } };

	it('a keyed row of an operation with a scope is looked up under its key alone (0.3.x: version 1 only), not as a 0.3.x row', () => {
		const v1 = new FormerLookups(staticData(), 'node-1', 1);
		v1.note('row', keyed);
		expect(v1.of('row')).toEqual([]);
		expect(v1.wider('row')).toEqual([
			rowIdentity(['sandbox', 'https://cv.test', 'POST', FACTS.path], null, 'EMP-1'),
			rowIdentity(['sandbox', 'cred-1', 'POST', FACTS.path], null, 'EMP-1'),
		]);
		// Their lookups leave no value: no more values a row; their marks go with the claims.
		expect(v1.marks()).toEqual([
			'm:0.3.x-rows-are-older',
			'm:0.3.x-keyed-rows-are-older',
			'm:0.4.x-keyed-rows-are-older',
		]);
		expect([v1.extraValuesPerRow, v1.marksKept]).toEqual([2, 4]);

		const v2 = new FormerLookups(staticData(), 'node-1', 2);
		v2.note('row', keyed);
		expect(v2.wider('row')).toEqual([
			rowIdentity(['sandbox', 'cred-1', 'POST', FACTS.path], null, 'EMP-1'),
		]);
		expect([v2.marks(), v2.extraValuesPerRow]).toEqual([['m:0.4.x-keyed-rows-are-older'], 0]);
	});

	it('a run without a keyed row carries none of their marks; an unscoped key keeps its 0.4.0 identity', () => {
		const v2 = new FormerLookups(staticData(), 'node-1', 2);
		v2.note('unscoped', FACTS);
		v2.note('unkeyed', { ...keyed, duplicateKey: undefined });
		expect([v2.wider('unscoped'), v2.wider('unkeyed'), v2.marks()]).toEqual([[], [], []]);
		expect(rowIdentity(['base'], null, 'EMP-1', undefined)).toBe(
			rowIdentity(['base'], { any: 1 }, 'EMP-1'),
		);
	});
});
