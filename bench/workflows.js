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
	createProfileThreeFieldParameters,
	createBody,
	CREATE_BODY_OBJECT,
	createProfilePath,
} = require('./candidates');

const V = '/verification/api/1.0';
const PACKAGE_NODE = 'n8n-nodes-candidate-verification.candidateVerification';
const HTTP_REQUEST_NODE = 'n8n-nodes-base.httpRequest';

/** The node under test in every workflow, whatever its kind. */
const TARGET = 'Target';
const SOURCE = 'Make items';

/**
 * N candidate rows (candidateRow's own source runs in the Code node); item badIndex gets an invalid
 * email. With `body` ('7' or '3') each item is already the request body (the leanest HTTP Request setup).
 */
function candidatesCode(count, badIndex, body) {
	const json = body ? `createBody(candidateRow(i), ${body === '3'})` : 'candidateRow(i)';
	return `${candidateRow.toString()}
${body ? createBody.toString() : ''}
const items = [];
for (let i = 0; i < ${count}; i++) items.push({ json: ${json} });
// New candidates every run: the node's duplicate protection skips rows sent by an earlier execution.
for (const item of items) item.json.name += ' #' + $execution.id;
${badIndex === undefined ? '' : `items[${badIndex}].json.email = 'not-an-email';`}
return items;`;
}

/** The Submit request body of a submission row. */
const SUBMIT_BODY_OF = (row) =>
	`{ data: { employmentDocumentType: 'experienceletter', nameAsPerEmployerRecords: ${row}.nameAsPerEmployerRecords, employerName: ${row}.employerName, joiningDate: ${row}.joiningDate, lastWorkingDate: ${row}.lastWorkingDate, document: { label: 'experienceletter', url: ${row}.documentUrl } }, verificationName: 'bgv-employment', transactionId: ${row}.transactionId }`;

/**
 * Employment submissions for existing transactions (created by prepare.js), a sheet's columns; with
 * `asBody` each item is already the request body (the leanest HTTP Request setup).
 */
function submissionsCode(transactionIds, asBody) {
	return `const ids = ${JSON.stringify(transactionIds)};
return ids.map((transactionId, i) => {
	const row = {
		transactionId,
		nameAsPerEmployerRecords: 'Candidate ' + i + ' #' + $execution.id,
		employerName: 'Acme Pvt Ltd',
		joiningDate: '2021-04-01',
		lastWorkingDate: '2024-03-31',
		documentUrl: 'https://files.example/private/exp-' + i + '.pdf',
	};
	return { json: ${asBody ? SUBMIT_BODY_OF('row') : 'row'} };
});`;
}

/**
 * This package's node as each variant sets it up: 'node' is the bulk setting (Mapping Mode → Map
 * Automatically), 'manual' maps every field with its own expression (Map Each Field Below),
 * 'manual3' only name, gender and email.
 */
const createProfileNode = (formId, variant) => ({
	type: PACKAGE_NODE,
	// BENCH_NODE_VERSION=2: the version new nodes get (1, the default, runs on 0.3.x's nodes too).
	typeVersion: Number(process.env.BENCH_NODE_VERSION ?? 1),
	parameters: {
		manual: createProfileParameters,
		manual3: createProfileThreeFieldParameters,
		node: createProfileAutomaticParameters,
		// Duplicate protection Off, and on with rows already recorded (see PROTECTION_VARIANTS).
		protectionOff: (id) => ({
			...createProfileAutomaticParameters(id),
			duplicateProtection: 'off',
		}),
		recorded: createProfileAutomaticParameters,
	}[variant.startsWith('recorded') ? 'recorded' : variant](formId),
});

const SUBMIT_FIELDS = [
	'transactionId',
	'nameAsPerEmployerRecords',
	'employerName',
	'joiningDate',
	'lastWorkingDate',
	'documentUrl',
];

const submitNode = (variant) => ({
	type: PACKAGE_NODE,
	typeVersion: 1,
	parameters: {
		resource: 'verification',
		operation: 'submit',
		verificationName: 'bgv-employment',
		employmentDocumentType: 'experienceletter',
		...(variant === 'manual'
			? Object.fromEntries(SUBMIT_FIELDS.map((field) => [field, `={{ $json.${field} }}`]))
			: { mappingMode: 'autoMapInputData' }),
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

/**
 * n8n's HTTP Request node at its leanest: the latest version, the key from a Header Auth credential,
 * the body the item itself (prepared upstream).
 */
function leanHttpRequestNode({ url, credentialId }) {
	return {
		type: HTTP_REQUEST_NODE,
		typeVersion: 4.5,
		parameters: {
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ $json }}',
			options: {},
		},
		credentials: { httpHeaderAuth: { id: credentialId, name: credentialId } },
	};
}

const CREATE_BODY = `={{ JSON.stringify(${CREATE_BODY_OBJECT}) }}`;
const SUBMIT_BODY = `={{ JSON.stringify(${SUBMIT_BODY_OF('$json')}) }}`;

/**
 * `source` (a node) replaces the Code node, e.g. a download giving an upload its file;
 * `nodeConcurrency` sets this package's node's Max Concurrent Requests.
 */
function workflow({ id, name, code, source, target, credentialId, nodeConcurrency }) {
	const withCredential = (node) => ({
		...node,
		...(node.type === PACKAGE_NODE && {
			credentials: { candidateVerificationApi: { id: credentialId, name: credentialId } },
		}),
	});
	const withConcurrency = (node) =>
		node.type === PACKAGE_NODE && nodeConcurrency
			? {
					...node,
					parameters: {
						...node.parameters,
						requestOptions: { maxConcurrentRequests: nodeConcurrency },
					},
				}
			: node;
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
		{ id: `${id}-n`, name: TARGET, position: [440, 0], ...withCredential(withConcurrency(target)) },
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

const VARIANT_CODE = {
	node: 'n',
	manual: 'm',
	manual3: 't',
	http: 'h',
	lean: 'l',
	lean3: 'k',
	protectionOff: 'o',
	recorded10000: 'p',
	recorded100000: 'q',
};

/** n8n workflow IDs are 16 characters: b + case letters + digits. */
const workflowId = (op, variant, latencyMs, count) =>
	`bn${op[0]}${VARIANT_CODE[variant]}${String(latencyMs).padStart(3, '0')}${String(count).padStart(9, '0')}`.slice(
		0,
		16,
	);

/**
 * Every workflow of the run. sandboxes: [{ latencyMs, url, credentialId, formId, transactionIds, fileUrl?,
 * uploadSourceUrl? }].
 * Returns [{ id, op, variant, latencyMs, count, workflow }].
 */
function benchWorkflows({ sandboxes, apiKey, headerAuthCredentialId, nodeConcurrency, cases }) {
	const out = [];
	for (const c of cases) {
		const sandbox = sandboxes.find((s) => s.latencyMs === c.latencyMs);
		const id = workflowId(c.op, c.variant, c.latencyMs, c.count);
		let code;
		let source;
		let target;
		const lean = c.variant.startsWith('lean');
		if (c.op === 'create' || c.op === 'preflight') {
			const url = `${sandbox.url}${createProfilePath(sandbox.formId)}`;
			const badIndex = c.op === 'preflight' ? c.count - 1 : undefined;
			code = candidatesCode(c.count, badIndex, lean && (c.variant === 'lean3' ? '3' : '7'));
			if (lean) target = leanHttpRequestNode({ url, credentialId: headerAuthCredentialId });
			else if (c.variant === 'http')
				target = httpRequestNode({ url, apiKey, jsonBody: CREATE_BODY });
			else target = createProfileNode(sandbox.formId, c.variant);
		} else if (c.op === 'submit') {
			const url = `${sandbox.url}${V}/bgv/diy`;
			code = submissionsCode(sandbox.transactionIds.slice(0, c.count), lean);
			if (lean) target = leanHttpRequestNode({ url, credentialId: headerAuthCredentialId });
			else if (c.variant === 'http')
				target = httpRequestNode({ url, apiKey, jsonBody: SUBMIT_BODY });
			else target = submitNode(c.variant);
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
				nodeConcurrency,
			}),
		});
	}
	return out;
}

module.exports = { benchWorkflows, workflowId, TARGET };
