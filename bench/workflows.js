'use strict';

/**
 * The benchmark's workflows: Manual Trigger → Code node making N candidate items → either this package's node
 * or n8n's HTTP Request node doing the same request (same method, path, JSON body mapped from the item, API key
 * as the x-api-key header). One workflow per case; IDs are stable so measure.js can find them.
 */

const {
	candidateRow,
	createProfileParameters,
	createProfileAutomaticParameters,
	CREATE_BODY_OBJECT,
	createProfilePath,
} = require('./candidates');

const V = '/verification/api/1.0';
const PACKAGE_NODE = 'n8n-nodes-candidate-verification.candidateVerification';
const HTTP_REQUEST_NODE = 'n8n-nodes-base.httpRequest';

/** The node under test in every workflow, whatever its kind. */
const TARGET = 'Target';
const SOURCE = 'Make items';

/** N candidate rows (candidateRow's own source runs in the Code node); item badIndex gets an invalid email. */
function candidatesCode(count, badIndex) {
	return `${candidateRow.toString()}
const items = [];
for (let i = 0; i < ${count}; i++) items.push({ json: candidateRow(i) });
${badIndex === undefined ? '' : `items[${badIndex}].json.email = 'not-an-email';`}
return items;`;
}

/** Employment submissions for existing transactions (created by prepare.js), a sheet's columns. */
function submissionsCode(transactionIds) {
	return `const ids = ${JSON.stringify(transactionIds)};
return ids.map((transactionId, i) => ({ json: {
	transactionId,
	nameAsPerEmployerRecords: 'Candidate ' + i,
	employerName: 'Acme Pvt Ltd',
	joiningDate: '2021-04-01',
	lastWorkingDate: '2024-03-31',
	documentUrl: 'https://files.example/private/exp-' + i + '.pdf',
} }));`;
}

/**
 * This package's node as each variant sets it up: 'node' is the bulk setting (Mapping Mode → Map
 * Automatically), 'manual' maps every field with its own expression (Map Each Field Below).
 */
const createProfileNode = (formId, variant) => ({
	type: PACKAGE_NODE,
	typeVersion: 1,
	parameters:
		variant === 'manual'
			? createProfileParameters(formId)
			: createProfileAutomaticParameters(formId),
});

const submitNode = () => ({
	type: PACKAGE_NODE,
	typeVersion: 1,
	parameters: {
		resource: 'verification',
		operation: 'submit',
		verificationName: 'bgv-employment',
		mappingMode: 'autoMapInputData',
		employmentDocumentType: 'experienceletter',
	},
});

const uploadNode = () => ({
	type: PACKAGE_NODE,
	typeVersion: 1,
	parameters: {
		resource: 'file',
		operation: 'upload',
		binaryPropertyName: 'data',
		fileCategory: 'bgv-employment',
	},
});

const downloadNode = (fileUrl) => ({
	type: PACKAGE_NODE,
	typeVersion: 1,
	parameters: { resource: 'file', operation: 'download', url: fileUrl, binaryPropertyName: 'data' },
});

/** n8n's HTTP Request node: POST url with a JSON body (an expression), the key as a header. */
function httpRequestNode({ url, apiKey, jsonBody, file = false }) {
	return {
		type: HTTP_REQUEST_NODE,
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'x-api-key', value: apiKey }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody,
			options: file
				? { response: { response: { responseFormat: 'file', outputPropertyName: 'data' } } }
				: {},
		},
	};
}

const CREATE_BODY = `={{ JSON.stringify(${CREATE_BODY_OBJECT}) }}`;
const SUBMIT_BODY =
	"={{ JSON.stringify({ data: { employmentDocumentType: 'experienceletter', nameAsPerEmployerRecords: $json.nameAsPerEmployerRecords, employerName: $json.employerName, joiningDate: $json.joiningDate, lastWorkingDate: $json.lastWorkingDate, document: { label: 'experienceletter', url: $json.documentUrl } }, verificationName: 'bgv-employment', transactionId: $json.transactionId }) }}";

/** `source` (a node) replaces the Code node, e.g. a download giving an upload its file. */
function workflow({ id, name, code, source, target, credentialId }) {
	const withCredential = (node) => ({
		...node,
		...(node.type === PACKAGE_NODE && {
			credentials: { candidateVerificationApi: { id: credentialId, name: credentialId } },
		}),
	});
	const nodes = [
		{
			id: `${id}-t`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: `${id}-c`,
			name: SOURCE,
			position: [220, 0],
			...withCredential(
				source ?? { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: code } },
			),
		},
		{ id: `${id}-n`, name: TARGET, position: [440, 0], ...withCredential(target) },
	];
	return {
		id,
		name,
		active: false,
		nodes,
		connections: {
			Start: { main: [[{ node: SOURCE, type: 'main', index: 0 }]] },
			[SOURCE]: { main: [[{ node: TARGET, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', saveManualExecutions: true },
	};
}

/** n8n workflow IDs are 16 characters: b + case letters + digits. */
const workflowId = (op, variant, latencyMs, count) =>
	`bn${op[0]}${variant[0]}${String(latencyMs).padStart(3, '0')}${String(count).padStart(9, '0')}`.slice(
		0,
		16,
	);

/**
 * Every workflow of the run. sandboxes: [{ latencyMs, url, credentialId, formId, transactionIds, fileUrl?,
 * uploadSourceUrl? }].
 * Returns [{ id, op, variant, latencyMs, count, workflow }].
 */
function benchWorkflows({ sandboxes, apiKey, cases }) {
	const out = [];
	for (const c of cases) {
		const sandbox = sandboxes.find((s) => s.latencyMs === c.latencyMs);
		const id = workflowId(c.op, c.variant, c.latencyMs, c.count);
		let code;
		let source;
		let target;
		if (c.op === 'create' || c.op === 'preflight') {
			code = candidatesCode(c.count, c.op === 'preflight' ? c.count - 1 : undefined);
			target =
				c.variant !== 'http'
					? createProfileNode(sandbox.formId, c.variant)
					: httpRequestNode({
							url: `${sandbox.url}${createProfilePath(sandbox.formId)}`,
							apiKey,
							jsonBody: CREATE_BODY,
						});
		} else if (c.op === 'submit') {
			code = submissionsCode(sandbox.transactionIds.slice(0, c.count));
			target =
				c.variant === 'node'
					? submitNode()
					: httpRequestNode({ url: `${sandbox.url}${V}/bgv/diy`, apiKey, jsonBody: SUBMIT_BODY });
		} else if (c.op === 'download') {
			code = 'return [{ json: {} }];';
			const body = `={{ JSON.stringify({ url: ${JSON.stringify(sandbox.fileUrl)}, getDownloadToken: false }) }}`;
			target =
				c.variant === 'node'
					? downloadNode(sandbox.fileUrl)
					: httpRequestNode({
							url: `${sandbox.url}${V}/download-manager/download-file`,
							apiKey,
							jsonBody: body,
							file: true,
						});
		} else if (c.op === 'upload') {
			// The file is first streamed into n8n's binary store by a download (not the measured node).
			source = downloadNode(sandbox.uploadSourceUrl);
			target = uploadNode();
		} else throw new Error(`unknown case ${c.op}`);
		out.push({
			...c,
			id,
			workflow: workflow({
				id,
				name: `bench ${c.op} ${c.variant} ${c.count} items ${c.latencyMs} ms`,
				code,
				source,
				target,
				credentialId: sandbox.credentialId,
			}),
		});
	}
	return out;
}

module.exports = { benchWorkflows, workflowId, TARGET };
