#!/usr/bin/env node
'use strict';

/**
 * Part of `npm run demo` (scripts/demo.sh), run once n8n is up: creates the owner account or logs
 * in, and makes sure the trigger example is registered at the sandbox.
 *
 * n8n keeps a published workflow's webhooks registered across restarts and does not run the
 * trigger's registration again at boot. The sandbox starts empty every time, so when it does not
 * know the trigger, the workflow is unpublished and published again (as the editor does), which
 * registers it anew. Prints one JSON line: { owner: 'created' | 'login', trigger: 'registered' | 're-registered' }.
 *
 * usage: node scripts/demo-setup.js <n8nUrl> <sandboxUrl> <email> <password> [webhookUrl]
 * (webhookUrl: where production webhooks are served, when not by n8nUrl: queue mode's webhook processor)
 */

const path = require('node:path');

const { N8nClient, sleep } = require('../test/e2e/n8n-client');

const TRIGGER_WORKFLOW = 'cvExampleTrigger';
const example = require(path.join(__dirname, '../examples/verification-event-summary.json'));
const webhookId = example.nodes.find((node) => node.type.endsWith('.candidateVerificationTrigger')).webhookId;

async function triggerKnownToSandbox(sandboxUrl, webhookUrl) {
	const response = await fetch(`${sandboxUrl}/__sandbox/state`);
	const state = await response.json();
	const endpoint = `${webhookUrl}/webhook/${webhookId}/webhook`;
	return state.webhookConfigs.some((config) => config.endpoint === endpoint);
}

async function waitForRegistration(sandboxUrl, webhookUrl, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await triggerKnownToSandbox(sandboxUrl, webhookUrl)) return true;
		await sleep(250);
	}
	return false;
}

async function main() {
	const [n8nUrl, sandboxUrl, email, password, webhookUrl = n8nUrl] = process.argv.slice(2);
	const n8n = new N8nClient(n8nUrl);
	const owner = await n8n.ownerSession({ email, password });

	// A fresh instance registers the trigger while it starts.
	if (await waitForRegistration(sandboxUrl, webhookUrl, owner === 'created' ? 5000 : 1500)) {
		console.log(JSON.stringify({ owner, trigger: 'registered' }));
		return;
	}
	await n8n.rest('POST', `/workflows/${TRIGGER_WORKFLOW}/deactivate`, {});
	const workflow = await n8n.rest('GET', `/workflows/${TRIGGER_WORKFLOW}`);
	await n8n.rest('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`, { versionId: workflow.versionId });
	if (!(await waitForRegistration(sandboxUrl, webhookUrl, 10_000))) {
		throw new Error('the trigger example did not register at the sandbox (see the n8n log)');
	}
	console.log(JSON.stringify({ owner, trigger: 're-registered' }));
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
