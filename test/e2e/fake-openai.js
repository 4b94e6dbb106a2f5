'use strict';

/**
 * A scripted stand-in for an OpenAI-compatible chat model (node:http, no dependencies), for
 * n8n's OpenAI Chat Model node pointed at it through the credential's Base URL (`…/v1`).
 *
 * - GET  /v1/models                 the one model it offers (the node's model list asks for it)
 * - POST /v1/chat/completions       answers with `script(body, callIndex)`: either
 *                                   `{ toolCalls: [{ name, args }] }` or `{ content }`; plain JSON,
 *                                   or server-sent chunks when the request asks for `stream: true`
 * Every request is kept in `requests` ({ method, path, headers, body }) for the test to assert.
 */

const http = require('node:http');

const MODEL_ID = 'cv-scripted-model';

function completion({ toolCalls, content }, callIndex) {
	const message = toolCalls
		? {
				role: 'assistant',
				content: null,
				tool_calls: toolCalls.map((call, index) => ({
					id: `call_${callIndex}_${index}`,
					type: 'function',
					function: { name: call.name, arguments: JSON.stringify(call.args) },
				})),
			}
		: { role: 'assistant', content };
	return {
		id: `chatcmpl-cv-${callIndex}`,
		object: 'chat.completion',
		created: 1_700_000_000 + callIndex,
		model: MODEL_ID,
		choices: [
			{ index: 0, message, finish_reason: toolCalls ? 'tool_calls' : 'stop', logprobs: null },
		],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as chat.completion.chunk events (one delta with everything, then the finish). */
function streamed(answer) {
	const { message, finish_reason } = answer.choices[0];
	const delta = { role: 'assistant', content: message.content ?? '' };
	if (message.tool_calls)
		delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...call }));
	const chunk = (choice) => ({
		id: answer.id,
		object: 'chat.completion.chunk',
		created: answer.created,
		model: MODEL_ID,
		choices: [choice],
	});
	return [
		chunk({ index: 0, delta, finish_reason: null }),
		chunk({ index: 0, delta: {}, finish_reason }),
	]
		.map((event) => `data: ${JSON.stringify(event)}\n\n`)
		.concat('data: [DONE]\n\n')
		.join('');
}

/** Listens on 127.0.0.1:port (0: a free port chosen by the system). */
function startFakeOpenAi(port, script) {
	const requests = [];
	let completions = 0;
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const path = req.url.replace(/\?.*$/, '');
			requests.push({ method: req.method, path, headers: req.headers, body });
			const send = (status, payload) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(payload));
			};
			if (req.method === 'GET' && path === '/v1/models') {
				return send(200, {
					object: 'list',
					data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'cv-e2e' }],
				});
			}
			if (req.method === 'POST' && path === '/v1/chat/completions') {
				let answer;
				try {
					answer = completion(script(body, completions), completions);
				} catch (error) {
					return send(500, {
						error: { message: `fake model script failed: ${error.message}`, type: 'server_error' },
					});
				} finally {
					completions += 1;
				}
				if (body && body.stream) {
					res.writeHead(200, { 'content-type': 'text/event-stream' });
					return res.end(streamed(answer));
				}
				return send(200, answer);
			}
			return send(404, {
				error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' },
			});
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/v1` }),
		);
	});
}

module.exports = { startFakeOpenAi, MODEL_ID };
