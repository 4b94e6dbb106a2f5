/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads (and on demand writes) its fixture */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IExecuteFunctions } from 'n8n-workflow';

import { ItemInput } from '../../../../nodes/CandidateVerification/engine/itemInput';
import { operation as submit } from '../../../../nodes/CandidateVerification/actions/verification/submit.operation';
import { operation as createForm } from '../../../../nodes/CandidateVerification/actions/form/create.operation';
import { SUBMITTABLE_CHECKS, SUBMITTABLE_CHECKS_V2 } from '../../../../nodes/shared/checks';

/**
 * The request bodies a fixed item builds, for every check and node version, byte for byte as the
 * code at the fixture's commit built them. Submit's row identity is a hash of its body: a field
 * reordered or renamed would re-submit every check already sent. Rewrite the fixture only from code
 * whose requests are meant to change: CV_WRITE_REQUEST_BODIES=1 npx jest <this file>.
 */
const FIXTURE = join(__dirname, '../../../fixtures/request-bodies.json');
const NODE_VERSIONS = [1, 2];

const address = {
	address: {
		line1: '12 MG Road',
		vtc: 'Indiranagar',
		district: 'Bengaluru Urban',
		state: 'Karnataka',
		pincode: '560038',
		country: 'India',
	},
};

/** Every field any check reads, filled; each check reads its own. */
function submitParameters(verificationName: string, nodeVersion: number) {
	return {
		resource: 'verification',
		operation: 'submit',
		transactionId: 'TXN-9',
		verificationName,
		employmentDocumentType: 'appointmentletter',
		nameAsPerEmployerRecords: 'Asha Verma',
		employerName: 'Acme Technologies Pvt Ltd',
		joiningDate: '01-04-2021',
		lastWorkingDate: '2024-03-31',
		documentUrl: 'https://files.example/private/document.pdf',
		pan: 'ABCDE1234F',
		currentAddress: address,
		permanentAddress: { address: { ...address.address, line1: '4 Park Street' } },
		fileUrl: 'https://files.example/private/certificate.pdf',
		nameAsPerDocument: 'Asha Verma',
		nameOfInstitute: 'Delhi University',
		registrationNumber: 'DU-2018-0042',
		yearOfPassing: '2012',
		issueDate: '30-06-2018',
		nameOfBoard: 'CBSE',
		documentLabel: nodeVersion === 1 ? 'marksheet' : '',
		level: 'masters',
		marksheetUrl: 'https://files.example/private/marks.pdf',
		...address.address,
		data: '{"zeta": 1, "alpha": {"y": [2, 1], "b": "text"}}',
	};
}

function build(definition: typeof submit, parameters: object, typeVersion: number) {
	const context = {
		getNode: () => ({ parameters, typeVersion }),
		evaluateExpression: () => {
			throw new Error('no expression in these parameters');
		},
	} as unknown as IExecuteFunctions;
	const input = new ItemInput(context, 0, { json: {} }, 'Asia/Kolkata');
	const request = definition.build(input);
	return JSON.stringify({
		body: request.body,
		echo: request.echo,
		problems: input.problems,
		identity: definition.duplicateProtection?.identity?.(request),
		scope: definition.duplicateProtection?.scope?.(request),
	});
}

function currentBodies(checks: readonly string[]): Record<string, string> {
	const bodies: Record<string, string> = {};
	for (const nodeVersion of NODE_VERSIONS) {
		for (const check of checks) {
			bodies[`submit v${nodeVersion} ${check}`] = build(
				submit,
				submitParameters(check, nodeVersion),
				nodeVersion,
			);
		}
		bodies[`form create v${nodeVersion}`] = build(
			createForm,
			{
				resource: 'form',
				operation: 'create',
				name: 'Engineering hires',
				purpose: { __rl: true, mode: 'id', value: 'PURPOSE-1' },
				// Every check a form may list: the baseline's, in the baseline's order.
				checks: FORM_CHECKS,
				skippableChecks: FORM_CHECKS.filter((_, index) => index % 3 === 0),
				userPaymentRequired: false,
				visibility: 'private',
			},
			nodeVersion,
		);
	}
	return bodies;
}

/** The checks a form lists at the fixture's commit (its order is the multi-select's). */
const FORM_CHECKS = [
	'bgv-tenth',
	'bgv-twelfth',
	'aadhaar',
	'bank-account',
	'cin',
	'bgv-cibil',
	'bgv-criminal',
	'bgv-degree',
	'bgv-degree-with-marksheet',
	'din',
	'dl',
	'bgv-employment',
	'employment-check',
	'face-match',
	'form26as',
	'bgv-global-database-check',
	'gst',
	'liveness',
	'bgv-local-address-digital',
	'bgv-local-address-postal',
	'pan',
	'passport',
	'bgv-permanent-address-digital',
	'bgv-permanent-address-postal',
	'bgv-police-verification',
	'bgv-professional-reference-check',
	'bgv-social-media',
	'upi',
	'voter-id',
];

/**
 * Version 1 rejects a name it does not take with a text listing every name it takes, so a new check
 * lengthens that list: the list is compared apart from the rest of the body (see the test).
 */
const REJECTION_LIST = /( is not one of )([^"\\]*)/g;

/** A body with each rejection's list of names taken out, and those lists. */
function apart(body: string): { body: string; lists: string[][] } {
	const lists: string[][] = [];
	const rest = body.replace(REJECTION_LIST, (_, words: string, list: string) => {
		lists.push(list.split(', '));
		return `${words}…`;
	});
	return { body: rest, lists };
}

describe('Request bodies a fixed item builds, per check and node version', () => {
	const allChecks = [...new Set([...SUBMITTABLE_CHECKS, ...SUBMITTABLE_CHECKS_V2])].sort();

	if (process.env.CV_WRITE_REQUEST_BODIES === '1') {
		it('writes the fixture from the code as it is', () => {
			writeFileSync(FIXTURE, `${JSON.stringify(currentBodies(allChecks), null, '\t')}\n`);
		});
		return;
	}

	const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, string>;
	const fixtureChecks = [
		...new Set(
			Object.keys(expected)
				.filter((key) => key.startsWith('submit v1 '))
				.map((key) => key.slice('submit v1 '.length)),
		),
	].sort();

	let current: Record<string, string> | undefined;
	const currentBody = (key: string) => (current ??= currentBodies(fixtureChecks))[key];

	// A check the code has and the fixture lacks is a new one: its own test covers it.
	it('still takes every check name of the fixture', () => {
		expect(allChecks).toEqual(expect.arrayContaining(fixtureChecks));
	});

	it.each(Object.keys(expected))('%s: byte-identical', (key) => {
		const now = apart(currentBody(key));
		const then = apart(expected[key]);
		expect(now.body).toBe(then.body);
		// A rejection lists the names version 1 takes (from the catalogue): the fixture's among them,
		// in the fixture's order.
		expect(now.lists).toHaveLength(then.lists.length);
		for (const [index, list] of now.lists.entries()) {
			expect(list).toEqual(SUBMITTABLE_CHECKS);
			expect(list.filter((name) => then.lists[index].includes(name))).toEqual(then.lists[index]);
		}
	});
});
