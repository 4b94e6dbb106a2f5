import * as instantKyc from '../../nodes/CandidateVerification/actions/instantKyc/InstantKyc.resource';
import {
	NODE_VERSIONS,
	submittableChecks,
	TYPED_CHECKS,
	typedCheckFor,
} from '../../nodes/CandidateVerification/actions/verification/checks';
import { verificationSubmitFields } from '../../nodes/CandidateVerification/actions/verification/fields';
import {
	CHECKS,
	FILE_CATEGORIES,
	FORM_VERIFICATION_NAMES,
	INSTANT_CALL_NAMES,
	instantCallNames,
	SUBMITTABLE_CHECKS,
	SUBMITTABLE_CHECKS_V2,
} from '../../nodes/shared/checks';

/** The sandbox stands for the service: it keeps its own list of the checks the service knows. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain script of the sandbox
const sandbox = require('../../sandbox/constants') as {
	FORM_VERIFICATION_NAMES: string[];
	SUBMISSION_VERIFICATION_NAMES: string[];
	FILE_CATEGORIES: string[];
};

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('The check catalogue (nodes/shared/checks.ts) against the service (the sandbox)', () => {
	it('a form lists the checks a form of the service accepts, no more, no fewer', () => {
		expect(sorted(CHECKS.filter(({ onForm }) => onForm).map(({ name }) => name))).toEqual(
			sorted(sandbox.FORM_VERIFICATION_NAMES),
		);
		expect(sorted(FORM_VERIFICATION_NAMES.map(({ value }) => value))).toEqual(
			sorted(sandbox.FORM_VERIFICATION_NAMES),
		);
	});

	it('every name of every check is one the service takes for a submission, and the other way round', () => {
		const catalogueNames = CHECKS.flatMap(({ name, otherName }) =>
			otherName ? [name, otherName.name] : [name],
		);
		expect(sorted(catalogueNames)).toEqual(sorted(sandbox.SUBMISSION_VERIFICATION_NAMES));
		expect(sorted([...SUBMITTABLE_CHECKS, ...SUBMITTABLE_CHECKS_V2])).toEqual(
			sorted(sandbox.SUBMISSION_VERIFICATION_NAMES),
		);
	});

	it('the upload categories are the service’s, in its order', () => {
		expect(FILE_CATEGORIES).toEqual(sandbox.FILE_CATEGORIES);
	});

	it('each check’s Instant KYC call is an operation of the Instant KYC resource', () => {
		const calls = CHECKS.flatMap(({ instant }) => (instant?.call ? [instant.call] : []));
		expect(calls.length).toBeGreaterThan(0);
		for (const call of calls) expect(Object.keys(instantKyc.operations)).toContain(call);
	});

	it('the instant-check notice names each check’s Instant KYC call, so a new call is named with no edit of its text', () => {
		const notice = verificationSubmitFields.find(({ name }) => name === 'instantCheckNotice');
		const named = CHECKS.flatMap(({ instant }) => (instant?.call ? [instant.named] : []));
		expect(sorted(INSTANT_CALL_NAMES)).toEqual(sorted(named));
		const calls = `${INSTANT_CALL_NAMES.slice(0, -1).join(', ')} and ${INSTANT_CALL_NAMES.at(-1)}`;
		expect(notice?.displayName.startsWith(`${calls} have instant calls of their own: `)).toBe(true);
		// A new call, without a place, comes last.
		const voterId = { name: 'voter-id', label: 'Voter ID', onForm: true };
		expect(
			instantCallNames([
				...CHECKS,
				{ ...voterId, instant: { call: 'verifyVoterId', named: 'voter ID' } },
			]),
		).toEqual([...INSTANT_CALL_NAMES, 'voter ID']);
	});

	it('each typed check builds names of the catalogue, and some check reaches it from its version on', () => {
		const catalogueNames = CHECKS.flatMap(({ name, otherName }) =>
			otherName ? [name, otherName.name] : [name],
		);
		for (const typed of TYPED_CHECKS) {
			for (const name of typed.checks) expect(catalogueNames).toContain(name);
			for (const version of NODE_VERSIONS.filter((v) => v >= typed.since)) {
				const reaching = submittableChecks(version).filter(
					(check) => typedCheckFor(check, version) === typed,
				);
				expect(reaching.length).toBeGreaterThan(0);
			}
		}
	});
});
