import { DirectoryLoader } from 'n8n-core';
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { RESOURCES } from '../../nodes/CandidateVerification/actions/router';
import { typedCheckFor } from '../../nodes/CandidateVerification/actions/verification/checks';
import { ACTIONS } from '../../nodes/shared/actions';
import { CHECKS, sentName } from '../../nodes/shared/checks';
import { ACTION_NODE_TYPE, nodeTypes } from '../harness/environment';

const { description } = new CandidateVerification();
const properties = description.properties;

/** The catalogue's checks a form lists (nodes/shared/checks.ts): version 1's Check lists. */
const FORM_CHECKS = CHECKS.filter(({ onForm }) => onForm);
/** The form's checks that take their data as JSON on version 1 (no typed check there). */
const JSON_CHECKS = FORM_CHECKS.filter(({ name }) => !typedCheckFor(name, 1));

function optionsOf(name: string, resource: string): INodePropertyOptions[] {
	const property = properties.find(
		(candidate) =>
			candidate.name === name && candidate.displayOptions?.show?.resource?.includes(resource),
	);
	return (property?.options ?? []) as INodePropertyOptions[];
}

/** The action node as a workflow holds it, with these parameters. */
function nodeWith(parameters: INode['parameters'], typeVersion = 1): INode {
	return {
		id: '1',
		name: 'Candidate Verification',
		type: ACTION_NODE_TYPE,
		typeVersion,
		position: [0, 0],
		parameters,
	};
}

/** The options of a Check list on one node version (its version gate evaluated as n8n does). */
function checkOptionsOf(resource: string, typeVersion: number): INodePropertyOptions[] {
	const property = properties.find(
		(candidate) =>
			candidate.name === 'verificationName' &&
			candidate.displayOptions?.show?.resource?.includes(resource) &&
			NodeHelpers.displayParameter(
				{},
				{
					...candidate,
					displayOptions: {
						show: { '@version': candidate.displayOptions?.show?.['@version'] ?? [] },
					},
				},
				{ typeVersion },
				description,
			),
	);
	return (property?.options ?? []) as INodePropertyOptions[];
}

/** The canvas subtitle as n8n's expression engine renders it for these parameters. */
function subtitleFor(parameters: Record<string, string>, typeVersion = 1): unknown {
	const node = nodeWith(parameters, typeVersion);
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	return workflow.expression.getSimpleParameterValue(
		node,
		description.subtitle as string,
		'internal',
		{},
	);
}

describe('Editor: what a no-code user sees', () => {
	it('Check lists are sorted by label, short, without the slug, with one police choice', () => {
		for (const [name, resource] of [
			['verificationName', 'verification'],
			['verificationName', 'transaction'],
			['checks', 'form'],
			['skippableChecks', 'form'],
		]) {
			const options = optionsOf(name, resource);
			expect(options.length).toBe(FORM_CHECKS.length);
			const labels = options.map((option) => option.name);
			expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
			for (const option of options) {
				expect(option.name.length).toBeLessThanOrEqual(28);
				expect(option.name).not.toContain(String(option.value));
				expect(option.description).toContain(`Check name: ${String(option.value)}`);
			}
			expect(labels.filter((label) => /police/i.test(label))).toEqual(['Police Verification']);
		}
	});

	it('version 2’s Check lists (Submit, Get Check Status): two police choices, the digital addresses by the names sent', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
		for (const resource of ['verification', 'transaction']) {
			const options = checkOptionsOf(resource, 2);
			// Every check of the catalogue, each by the name version 2 sends.
			expect(options).toHaveLength(CHECKS.length);
			const labels = options.map((option) => option.name);
			expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
			for (const option of options) {
				expect(option.name.length).toBeLessThanOrEqual(29);
				expect(option.name).not.toContain(String(option.value));
				expect(option.description).toContain(`Check name: ${String(option.value)}`);
			}
			const named = (pattern: RegExp) =>
				options
					.filter((option) => pattern.test(option.name))
					.map(({ name, value }) => ({ name, value }));
			expect(named(/police/i)).toEqual([
				{ name: 'Police Clearance Certificate', value: 'bgv-police-clearance-certificate' },
				{ name: 'Police Verification (Address)', value: 'bgv-police-verification' },
			]);
			expect(named(/digital/i)).toEqual([
				{ name: 'Local Address (Digital)', value: 'bgv-local-extended-address' },
				{ name: 'Permanent Address (Digital)', value: 'bgv-permanent-extended-address' },
			]);
			// Version 1 keeps today's list.
			expect(checkOptionsOf(resource, 1)).toEqual(optionsOf('verificationName', resource));
		}
	});

	it('version 2’s degree Level: the eight public levels by readable name, no default', () => {
		const level = properties.find((property) => property.name === 'level');
		expect(level).toMatchObject({ type: 'options', required: true, default: '' });
		expect(level?.options).toEqual([
			{ name: 'Diploma', value: 'DIPLOMA' },
			{ name: 'Graduate', value: 'GRADUATE' },
			{ name: 'Masters', value: 'MASTERS' },
			{ name: 'Other', value: 'OTHER' },
			{ name: 'PhD', value: 'PHD' },
			{ name: 'Post Doc', value: 'POST_DOC' },
			{ name: 'Post Graduate Diploma', value: 'POST_GRADUATE_DIPLOMA' },
			{ name: 'Professional Course', value: 'PROFESSIONAL_COURSE' },
		]);
	});

	it.each([
		['bgv-police-verification', 'Submit: Police Verification (Address)'],
		['bgv-police-clearance-certificate', 'Submit: Police Clearance Certificate'],
		['bgv-local-extended-address', 'Submit: Local Address (Digital)'],
		['bgv-degree', 'Submit: Degree or Marksheet'],
	])('canvas subtitle on version 2 for %s reads "%s"', (verificationName, subtitle) => {
		expect(
			subtitleFor({ resource: 'verification', operation: 'submit', verificationName }, 2),
		).toBe(subtitle);
	});

	it.each([
		[
			{ resource: 'verification', operation: 'submit', verificationName: 'bgv-employment' },
			'Submit: Employment',
		],
		[
			{
				resource: 'verification',
				operation: 'submit',
				verificationName: 'bgv-police-verification',
			},
			'Submit: Police Verification',
		],
		[
			{ resource: 'verification', operation: 'submit', verificationName: 'bgv-twelfth' },
			'Submit: 12th Education',
		],
		[
			{ resource: 'transaction', operation: 'getCheckStatus', verificationName: 'bgv-cibil' },
			'Check Status: Credit (CIBIL)',
		],
		[{ resource: 'transaction', operation: 'getStatus' }, 'Get Status: Transaction'],
		[{ resource: 'profile', operation: 'create' }, 'Create: Candidate'],
		[{ resource: 'form', operation: 'create' }, 'Create: Form'],
		[{ resource: 'purpose', operation: 'getAll' }, 'Get Many: Purpose'],
		[{ resource: 'file', operation: 'download' }, 'Download: File'],
		[{ resource: 'webhookConfig', operation: 'update' }, 'Update: Webhook Config'],
	])('canvas subtitle for %j reads "%s"', (parameters, subtitle) => {
		expect(subtitleFor(parameters)).toBe(subtitle);
	});

	it('every action is the label its operation declares and its errors use, and says whether it changes anything', () => {
		const operations = properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => property.options as INodePropertyOptions[]);
		const labels = Object.values(RESOURCES).flatMap(({ operations: declared }) =>
			Object.values(declared).map(({ operation }) => operation.label),
		);
		expect(operations.map((operation) => operation.action).sort()).toEqual(labels.sort());
		expect(new Set(labels).size).toBe(labels.length);
		// The labels the trigger uses too (nodes/shared/actions.ts) are the operations' own.
		expect(labels).toEqual(expect.arrayContaining(Object.values(ACTIONS)));
		for (const operation of operations) {
			expect(operation.description?.length ?? 0).toBeGreaterThan(30);
		}
		// The operations that create or change something at the service declare the ID it returns.
		const changing = Object.values(RESOURCES).flatMap(({ operations: declared }) =>
			Object.values(declared)
				.filter(({ operation }) => operation.acceptedIdField)
				.map(({ operation }) => operation.label),
		);
		const creating = operations.filter((operation) =>
			/^(Create|Add|Submit|Upload|Update)/.test(operation.action ?? ''),
		);
		expect(creating.length).toBeGreaterThan(0);
		expect(changing).toEqual(expect.arrayContaining(creating.map(({ action }) => action)));
		for (const operation of operations.filter(({ action }) => changing.includes(String(action)))) {
			expect(operation.description).toMatch(/creates?|create a|repoint|replaces|to the service/i);
		}
	});

	it('every field has a description an agent can act on, and placeholders read "e.g. …"', () => {
		const fields: INodeProperties[] = properties.flatMap((property) => [
			property,
			...((property.options ?? []) as INodeProperties[]).filter((option) => 'type' in option),
		]);
		const withoutDescription = fields
			.filter((field) => !['notice', 'collection', 'fixedCollection'].includes(field.type))
			.filter((field) => !['resource', 'operation'].includes(field.name))
			.filter((field) => !/\S{3,}/.test(field.description ?? ''))
			.map((field) => field.name);
		const otherPlaceholders = fields
			.filter((field) => !['collection', 'fixedCollection'].includes(field.type))
			.filter((field) => field.placeholder && !field.placeholder.startsWith('e.g. '))
			.map((field) => `${field.name}: ${field.placeholder}`);
		expect({ withoutDescription, otherPlaceholders }).toEqual({
			withoutDescription: [],
			otherPlaceholders: [],
		});
	});

	it('each JSON check shows a notice and its own example as the placeholder', () => {
		const dataFields = properties.filter((property) => property.name === 'data');
		const checks = dataFields.flatMap(
			(field) => field.displayOptions?.show?.verificationName as string[],
		);
		expect([...checks].sort()).toEqual(JSON_CHECKS.map(({ name }) => name).sort());
		expect(checks).not.toContain('bgv-twelfth');
		const placeholderOf = (check: string) =>
			dataFields.find((field) => field.displayOptions?.show?.verificationName?.includes(check))
				?.placeholder;
		expect(placeholderOf('pan')).toBe('e.g. {"pan":"ABCDE1234F"}');
		// The public field names of the instant checks, not guessed ones.
		expect(placeholderOf('gst')).toBe('e.g. {"gst":"29ABCDE1234F1Z5"}');
		expect(placeholderOf('upi')).toBe('e.g. {"upi":"asha@okbank"}');
		expect(placeholderOf('bank-account')).toBe(
			'e.g. {"accountNumber":"000123456789","ifsc":"HDFC0000123","pennyLess":true}',
		);
		expect(JSON.parse(String(placeholderOf('bgv-degree-with-marksheet')).slice(5))).toMatchObject({
			level: 'GRADUATE',
			issueDate: '2016-06-30',
			documentList: [{ label: 'Degree' }, { label: 'Marksheet' }],
		});
		for (const field of dataFields) {
			expect(JSON.parse(String(field.placeholder).replace(/^e\.g\. /, ''))).toEqual(
				expect.any(Object),
			);
		}
		// Degree and the digital addresses are typed on version 2: their JSON field is version 1's.
		const versionOneOnly = dataFields
			.filter((field) => field.displayOptions?.show?.['@version'])
			.map((field) => [
				field.displayOptions?.show?.verificationName,
				field.displayOptions?.show?.['@version'],
			]);
		const typedOnTwo = JSON_CHECKS.filter((check) => typedCheckFor(sentName(check, 2), 2)).map(
			({ name }) => [[name], [1]],
		);
		expect(typedOnTwo).toEqual(
			expect.arrayContaining([
				[['bgv-degree'], [1]],
				[['bgv-local-address-digital'], [1]],
				[['bgv-permanent-address-digital'], [1]],
			]),
		);
		const byCheck = (one: unknown[], other: unknown[]) =>
			String(one[0]).localeCompare(String(other[0]));
		expect([...versionOneOnly].sort(byCheck)).toEqual(typedOnTwo.sort(byCheck));
		const shownFor = (name: string) =>
			properties
				.filter((property) => property.name === name)
				.flatMap((property) => property.displayOptions?.show?.verificationName as string[]);
		const instant = ['pan', 'gst', 'bank-account', 'upi', 'din', 'employment-check', 'aadhaar'];
		expect(shownFor('instantCheckNotice')).toEqual(expect.arrayContaining(instant));
		expect([...shownFor('instantCheckNotice'), ...shownFor('jsonDataNotice')].sort()).toEqual(
			[...checks].sort(),
		);
		const instantNotice = properties.find((property) => property.name === 'instantCheckNotice');
		expect(instantNotice?.displayName).toContain('use the Instant KYC resource');
	});
});

describe('Settings → Request Options (declared by the node, at the paths n8n gives declarative nodes)', () => {
	const requestOptions = properties.find((property) => property.name === 'requestOptions');

	it('is a node setting with batching, timeout, proxy and SSL at the same parameter paths, plus concurrency and retries', () => {
		expect(requestOptions).toMatchObject({ type: 'collection', isNodeSetting: true, default: {} });
		const options = requestOptions!.options as INodeProperties[];
		expect(options.map((option) => option.name)).toEqual([
			'batching',
			'allowUnauthorizedCerts',
			'maxConcurrentRequests',
			'proxy',
			'transientRetries',
			'timeout',
			'retryWait',
		]);
		const batch = (options[0].options as Array<{ name: string; values: INodeProperties[] }>)[0];
		expect(batch.name).toBe('batch');
		expect(batch.values.map((value) => value.name)).toEqual(['batchSize', 'batchInterval']);
		expect(options.find((option) => option.name === 'maxConcurrentRequests')?.default).toBe(200);
	});

	it('each option added pre-fills the value the node uses without it (Timeout 60 s, not a shorter one)', () => {
		const options = requestOptions!.options as INodeProperties[];
		const prefilled = Object.fromEntries(options.map((option) => [option.name, option.default]));
		expect(prefilled).toMatchObject({
			timeout: 60_000,
			maxConcurrentRequests: 200,
			transientRetries: 2,
			retryWait: 1000,
			allowUnauthorizedCerts: false,
			proxy: '',
		});
	});

	it('n8n adds no second Request Options collection: the node has its own execute()', () => {
		const nodeType = new CandidateVerification();
		const before = nodeType.description.properties.length;
		DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
		expect(typeof nodeType.execute).toBe('function');
		expect(nodeType.description.properties).toHaveLength(before);
		expect(nodeType.description).not.toHaveProperty('requestDefaults');
	});
});

describe('File → Upload: File Category', () => {
	it('lists readable names, sorted, and sends the service’s value unchanged', () => {
		const { description } = new CandidateVerification();
		const category = description.properties.find((property) => property.name === 'fileCategory');
		const options = (category?.options ?? []) as INodePropertyOptions[];
		// The catalogue's checks with an upload category, sorted by name.
		expect(options.map(({ value }) => value).sort()).toEqual(
			CHECKS.filter(({ uploadCategory }) => uploadCategory)
				.map(({ name }) => name)
				.sort(),
		);
		const names = options.map(({ name }) => name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(options).toEqual(
			expect.arrayContaining([
				{ name: '10th Education', value: 'bgv-tenth', description: 'Check name: bgv-tenth' },
				{ name: '12th Education', value: 'bgv-twelfth', description: 'Check name: bgv-twelfth' },
				{ name: 'Credit (CIBIL)', value: 'bgv-cibil', description: 'Check name: bgv-cibil' },
				{
					name: 'Criminal Court Record',
					value: 'bgv-criminal',
					description: 'Check name: bgv-criminal',
				},
				{ name: 'Degree or Marksheet', value: 'bgv-degree', description: 'Check name: bgv-degree' },
				{ name: 'Employment', value: 'bgv-employment', description: 'Check name: bgv-employment' },
				{
					name: 'Local Address (Digital)',
					value: 'bgv-local-address-digital',
					description: 'Check name: bgv-local-address-digital',
				},
				{
					name: 'Local Address (Postal)',
					value: 'bgv-local-address-postal',
					description: 'Check name: bgv-local-address-postal',
				},
				{
					name: 'Permanent Address (Digital)',
					value: 'bgv-permanent-address-digital',
					description: 'Check name: bgv-permanent-address-digital',
				},
				{
					name: 'Permanent Address (Postal)',
					value: 'bgv-permanent-address-postal',
					description: 'Check name: bgv-permanent-address-postal',
				},
				{
					name: 'Police Clearance Certificate',
					value: 'bgv-police-clearance-certificate',
					description: 'Check name: bgv-police-clearance-certificate',
				},
				{
					name: 'Police Verification',
					value: 'bgv-police-verification',
					description:
						'Police verification at the candidate’s address. Verification → Submit version 1 sends the clearance certificate (bgv-police-clearance-certificate) for it. Check name: bgv-police-verification',
				},
			]),
		);
	});
});

describe('Publishing a workflow (n8n checks the required parameters)', () => {
	const issuesOf = (parameters: Record<string, unknown>) => {
		const node = nodeWith(parameters as INode['parameters']);
		const resolved = NodeHelpers.getNodeParameters(
			properties,
			node.parameters,
			true,
			false,
			node,
			description,
		);
		return NodeHelpers.getNodeParametersIssues(
			properties,
			{ ...node, parameters: resolved! },
			description,
		);
	};
	const createProfile = {
		resource: 'profile',
		operation: 'create',
		formId: 'form-1',
		name: '={{ $json.name }}',
		gender: '={{ $json.gender }}',
	};

	it('Duplicate Protection set by an expression publishes: no field of a mode it may pick is required', () => {
		expect(
			issuesOf({ ...createProfile, duplicateProtection: "={{ $json.protection ?? 'skipSent' }}" }),
		).toBeNull();
	});

	it('with the defaults the node publishes', () => {
		expect(issuesOf(createProfile)).toBeNull();
	});
});
