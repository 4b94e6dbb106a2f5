'use strict';

/**
 * This package as a tool of n8n's AI Agent (@n8n/n8n-nodes-langchain, shipped with n8n), in the
 * e2e n8n started by run.sh. The chat model is n8n's OpenAI Chat Model with a credential whose
 * Base URL points at a scripted fake (fake-openai.js) that answers with fixed tool calls:
 *   1. Add_Candidate (Profile → Create, every field from $fromAI()),
 *   2. Get_Transaction_Status (Transaction → Get Status) with the transactionId the first tool
 *      returned (read from the tool result the agent sent back),
 *   3. a final answer quoting that result.
 * Asserted field by field: what the sandbox of the service received, what the model was offered
 * (tool names, descriptions, argument schemas) and sent back, and the agent's output.
 *
 * Environment: CV_N8N_URL, CV_SANDBOX_URL, SANDBOX_API_KEY, SANDBOX_ORG_ID.
 */

const assert = require('node:assert/strict');

const { startFakeOpenAi, MODEL_ID } = require('./fake-openai');
const { N8nClient } = require('./n8n-client');
const {
	E2E_OWNER,
	SANDBOX_CREDENTIAL,
	actionNodeDescription,
	describedOperations,
} = require('./package-under-test');
const { createReport } = require('./report');

const {
	CV_N8N_URL: N8N_URL,
	CV_SANDBOX_URL: SANDBOX_URL,
	SANDBOX_API_KEY: API_KEY,
	SANDBOX_ORG_ID: ORG_ID,
} = process.env;
const TOOL_NODE_TYPE = 'n8n-nodes-candidate-verification.candidateVerificationTool';
const V = '/verification/api/1.0';

const CANDIDATE = {
	name: 'Asha Verma',
	gender: 'Female',
	mobile: '9876543210',
	email: 'asha.verma@example.com',
};
const ADD_TOOL = 'Add_Candidate';
const STATUS_TOOL = 'Get_Transaction_Status';

const report = createReport();
const fromAi = (key, description) => `={{ $fromAI('${key}', '${description}', 'string') }}`;

/** The description n8n gives an operation's tool: "<action> in <node's default name>". */
function toolDescriptionOf(resource, operation) {
	const description = actionNodeDescription();
	const match = describedOperations(description).find(
		(entry) => entry.resource.value === resource && entry.operation.value === operation,
	);
	return `${match.operation.action} in ${description.defaults.name}`;
}

async function sandbox(method, route, body) {
	const response = await fetch(`${SANDBOX_URL}${route}`, {
		method,
		headers: { 'x-api-key': API_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	const answer = await response.json();
	if (!response.ok || answer.code === -1)
		throw new Error(`sandbox ${method} ${route}: ${JSON.stringify(answer).slice(0, 300)}`);
	return answer;
}

/** A form to add the candidate to, made directly at the sandbox (not what this test is about). */
async function createForm() {
	const { data: purposes } = await sandbox('GET', `${V}/purposes`);
	const bgv = purposes.list.find((purpose) => purpose.name === 'BGV');
	const { data: form } = await sandbox('POST', `${V}/ekyc-forms`, {
		name: 'AI agent hires',
		purpose: bgv._id,
		verifications: [{ name: 'bgv-employment', skipAllowed: false }],
		userPaymentRequired: false,
		type: 'diy',
		sharing: { visibility: 'private' },
	});
	return form._id;
}

function toolResults(body) {
	return (body.messages || [])
		.filter((message) => message.role === 'tool')
		.map((message) => String(message.content));
}

/** The model's side of the conversation: fixed tool calls, the second one fed by the first's result. */
function script(formId) {
	return (body, callIndex) => {
		if (callIndex === 0) {
			return {
				toolCalls: [
					{
						name: ADD_TOOL,
						args: {
							formId,
							candidateName: CANDIDATE.name,
							gender: CANDIDATE.gender,
							mobile: CANDIDATE.mobile,
							email: CANDIDATE.email,
						},
					},
				],
			};
		}
		const results = toolResults(body);
		if (callIndex === 1) {
			const transactionId = /"transactionId"\s*:\s*"([^"]+)"/.exec(results[0] || '')?.[1];
			if (!transactionId)
				throw new Error(`no transactionId in the first tool result: ${results[0]}`);
			return { toolCalls: [{ name: STATUS_TOOL, args: { transactionId } }] };
		}
		const state = /"state"\s*:\s*"([^"]+)"/.exec(results[1] || '')?.[1];
		return { content: `Added ${CANDIDATE.name}; overall state: ${state}` };
	};
}

function agentWorkflow(openAiCredential) {
	const node = (name, type, typeVersion, position, parameters, credentials) => ({
		id: `cv-agent-${position[0]}-${position[1]}`,
		name,
		type,
		typeVersion,
		position,
		parameters,
		...(credentials ? { credentials } : {}),
	});
	const cvCredentials = { candidateVerificationApi: SANDBOX_CREDENTIAL };
	return {
		name: 'E2E: AI Agent uses Candidate Verification as a tool',
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 2.2, [220, 0], {
				promptType: 'define',
				text: `Add ${CANDIDATE.name} (${CANDIDATE.gender}, mobile ${CANDIDATE.mobile}, ${CANDIDATE.email}) to the new hires form, then tell me the state of her verification.`,
				options: {},
			}),
			node(
				'OpenAI Chat Model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				1.2,
				[120, 220],
				{ model: { __rl: true, mode: 'id', value: MODEL_ID }, options: { maxRetries: 0 } },
				{ openAiApi: openAiCredential },
			),
			node(
				'Add Candidate',
				TOOL_NODE_TYPE,
				1,
				[320, 220],
				{
					resource: 'profile',
					operation: 'create',
					formId: fromAi('formId', 'ID of the form the candidate joins'),
					name: fromAi('candidateName', 'Full name of the candidate'),
					gender: fromAi('gender', 'Male, Female or Other'),
					additionalFields: {
						mobile: fromAi('mobile', 'Mobile number, 10 digits'),
						email: fromAi('email', 'Email address'),
					},
				},
				cvCredentials,
			),
			node(
				'Get Transaction Status',
				TOOL_NODE_TYPE,
				1,
				[520, 220],
				{
					resource: 'transaction',
					operation: 'getStatus',
					transactionId: fromAi(
						'transactionId',
						'The transactionId returned when the candidate was added',
					),
				},
				cvCredentials,
			),
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Add Candidate': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Get Transaction Status': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

async function main() {
	const client = new N8nClient(N8N_URL);
	await client.ownerSession(E2E_OWNER);
	await client.createApiKey(`e2e-agent-${Date.now()}`);

	const ready = await report.step(
		`n8n offers the node as an AI tool (${TOOL_NODE_TYPE})`,
		async () => {
			const types = await client.request('GET', '/types/nodes.json');
			const tool = types.find((type) => type.name === TOOL_NODE_TYPE);
			assert.ok(tool, 'no tool variant of the node');
			assert.deepEqual(tool.outputs, ['ai_tool']);
		},
	);
	if (!ready) return;

	const formId = await createForm();
	const fake = await startFakeOpenAi(0, script(formId));
	try {
		const before = (await sandbox('GET', '/__sandbox/requests')).requests.length;
		const openAiCredential = await client.rest('POST', '/credentials', {
			name: 'Scripted OpenAI-compatible model',
			type: 'openAiApi',
			data: { apiKey: 'sk-fake-e2e', url: fake.url },
		});
		const workflow = await client.rest(
			'POST',
			'/workflows',
			agentWorkflow({ id: openAiCredential.id, name: openAiCredential.name }),
		);
		const started = Date.now();
		const execution = await client.waitForExecution(
			await client.runManually(workflow.id, 'Start'),
			120_000,
		);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		const received = (await sandbox('GET', '/__sandbox/requests')).requests.slice(before);
		const completions = fake.requests.filter((request) => request.path === '/v1/chat/completions');
		let transactionId;

		await report.step(
			`the AI Agent workflow runs to success (${seconds}s), three model calls`,
			async () => {
				const { error } = execution.data.resultData;
				assert.equal(execution.status, 'success', error && error.message);
				assert.equal(completions.length, 3, `${completions.length} chat completion requests`);
			},
		);

		await report.step(
			`the model is offered both tools: named after the nodes, described by their actions, arguments from $fromAI()`,
			async () => {
				const tools = Object.fromEntries(
					completions[0].body.tools.map(({ function: fn }) => [fn.name, fn]),
				);
				assert.deepEqual(Object.keys(tools).sort(), [ADD_TOOL, STATUS_TOOL]);
				assert.equal(tools[ADD_TOOL].description, toolDescriptionOf('profile', 'create'));
				assert.equal(tools[STATUS_TOOL].description, toolDescriptionOf('transaction', 'getStatus'));
				assert.deepEqual(Object.keys(tools[ADD_TOOL].parameters.properties).sort(), [
					'candidateName',
					'email',
					'formId',
					'gender',
					'mobile',
				]);
				assert.deepEqual(tools[ADD_TOOL].parameters.required.sort(), [
					'candidateName',
					'email',
					'formId',
					'gender',
					'mobile',
				]);
				assert.equal(
					tools[ADD_TOOL].parameters.properties.gender.description,
					'Male, Female or Other',
				);
				assert.deepEqual(Object.keys(tools[STATUS_TOOL].parameters.properties), ['transactionId']);
				assert.equal(completions[0].body.model, MODEL_ID);
				assert.equal(completions[0].headers.authorization, 'Bearer sk-fake-e2e');
			},
		);

		await report.step(
			'Profile → Create through the tool: the sandbox received the candidate field by field',
			async () => {
				const posts = received.filter(
					(request) =>
						request.method === 'POST' && request.path === `${V}/ekyc-forms/${formId}/diy-candidate`,
				);
				assert.equal(posts.length, 1, `${posts.length} POST …/diy-candidate`);
				const [post] = posts;
				assert.ok(post.headers['x-api-key'] === API_KEY, 'not sent with the credential API key');
				assert.match(post.headers['content-type'], /^application\/json/);
				assert.deepEqual(post.body, {
					name: CANDIDATE.name,
					gender: CANDIDATE.gender,
					mobile: CANDIDATE.mobile,
					email: CANDIDATE.email,
				});
				const profile = (await sandbox('GET', '/__sandbox/state')).transactions.find(
					(transaction) =>
						transaction.candidate.name === CANDIDATE.name && transaction.formId === formId,
				);
				assert.ok(profile, 'the sandbox holds no transaction for the candidate');
				transactionId = profile.transactionId;
				assert.match(
					toolResults(completions[1].body)[0],
					new RegExp(`"transactionId":\\s*"${transactionId}"`),
				);
				return `transaction ${transactionId}`;
			},
		);

		await report.step(
			'Transaction → Get Status through the tool, with the transactionId the first tool returned',
			async () => {
				const gets = received.filter(
					(request) => request.method === 'GET' && request.path === `${V}/transactions/info`,
				);
				assert.equal(gets.length, 1, `${gets.length} GET …/transactions/info`);
				assert.deepEqual(gets[0].query, { orgId: ORG_ID, txnId: transactionId });
				assert.ok(gets[0].headers['x-api-key'] === API_KEY, 'not sent with the credential API key');
				assert.equal(gets[0].status, 200);
				assert.equal(
					received.length,
					2,
					`the service got ${received.length} requests: ${received.map((r) => `${r.method} ${r.path}`).join(', ')}`,
				);
			},
		);

		// What the model reads back from each tool must be what the node outputs in a workflow, field by field.
		const toolAnswer = (completion, index) => {
			const content = toolResults(completions[completion].body)[index];
			try {
				return JSON.parse(content);
			} catch {
				throw new Error(`the tool answer is not JSON: ${String(content).slice(0, 200)}`);
			}
		};

		await report.step(
			"the Add Candidate tool answers the model with the node's output of Profile → Create: exactly { transactionId, formId, name }",
			async () => {
				assert.ok(transactionId, 'no transaction at the sandbox (see the step above)');
				assert.deepEqual(toolAnswer(1, 0), [{ transactionId, formId, name: CANDIDATE.name }]);
			},
		);

		await report.step(
			"the Get Transaction Status tool answers the model with the node's output of Transaction → Get Status: the service's transaction, field by field",
			async () => {
				assert.ok(transactionId, 'no transaction at the sandbox (see the step above)');
				const stored = (await sandbox('GET', '/__sandbox/state')).transactions.find(
					(transaction) => transaction.transactionId === transactionId,
				);
				const answer = toolAnswer(2, 1);
				assert.ok(Array.isArray(answer) && answer.length === 1, `${JSON.stringify(answer).slice(0, 200)}`);
				const [status] = answer;
				assert.match(String(status.report), /\/private-files\/[0-9a-f]+\/report-TXN[0-9A-F]+\.pdf$/);
				assert.deepEqual(status, {
					transactionId,
					orgId: ORG_ID,
					formId,
					// As both of the provider's pages show it: the candidate's details under profileDetails too.
					candidate: { ...stored.candidate, profileDetails: { name: CANDIDATE.name, gender: CANDIDATE.gender } },
					verificationList: stored.verificationList.map(({ name, state }) => ({ name, state })),
					state: 'NOT_STARTED',
					report: status.report,
					createdAt: stored.createdAt,
					updatedAt: stored.updatedAt,
				});
			},
		);

		await report.step("the agent's answer is built from the tools' results", async () => {
			const output = execution.data.resultData.runData['AI Agent'][0].data.main[0].map(
				(item) => item.json.output,
			);
			assert.deepEqual(output, [`Added ${CANDIDATE.name}; overall state: NOT_STARTED`]);
			return output[0];
		});
	} finally {
		fake.server.close();
	}
}

report.run('agent.js', main);
