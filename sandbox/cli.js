#!/usr/bin/env node
'use strict';

const { createSandbox } = require('./server');

async function main() {
	const port = Number(process.env.SANDBOX_PORT || 8790);
	const host = process.env.SANDBOX_HOST || '127.0.0.1';
	const sandbox = createSandbox({
		apiKey: process.env.SANDBOX_API_KEY || 'sandbox-api-key',
		orgId: process.env.SANDBOX_ORG_ID || 'sandbox-org',
		publicBaseUrl: process.env.SANDBOX_PUBLIC_BASE_URL || undefined,
		notifyDelayMs: Number(process.env.SANDBOX_NOTIFY_DELAY_MS || 0),
		latencyMs: Number(process.env.SANDBOX_LATENCY_MS || 0),
		generatedFileBytes: Math.round(Number(process.env.SANDBOX_GENERATED_FILE_MIB || 0) * 1024 * 1024),
		// The API's 20 MiB limit on a request body, raised for the benchmark's large upload.
		...(process.env.SANDBOX_MAX_BODY_MIB && { maxBodyBytes: Number(process.env.SANDBOX_MAX_BODY_MIB) * 1024 * 1024 }),
		// 'id' (default, as the provider's pages show) or 'name': how notifications name the check.
		...(process.env.SANDBOX_NOTIFY_CHECK_BY && { notifyCheckBy: process.env.SANDBOX_NOTIFY_CHECK_BY }),
		// 'contract' (default) or 'current': the provider's current public pages where they differ from the contract.
		...(process.env.SANDBOX_PAGES && { pages: process.env.SANDBOX_PAGES }),
	});

	// Method, path and status only: header values (API keys) never reach the log.
	sandbox.events.on('request', ({ method, path, status }) => console.log(`${method} ${path} -> ${status}`));
	sandbox.events.on('delivery', ({ endpoint, payload, statusCode, error }) =>
		console.log(
			`webhook ${payload.verificationId}=${payload.action || payload.newState} -> ${endpoint} ${statusCode || `failed: ${error}`}`,
		),
	);

	const { baseUrl } = await sandbox.listen(port, host);
	console.log(`Candidate Verification sandbox listening on ${baseUrl} (API key: ${sandbox.apiKey}, org ID: ${sandbox.orgId})`);
	console.log(`Pages: ${sandbox.state.pages}`);
	console.log(`Sample private file: ${sandbox.sampleFileUrl}`);
	if (sandbox.generatedFileUrl) console.log(`Generated private file: ${sandbox.generatedFileUrl}`);

	let stopping = false;
	const stop = (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`${signal} received, stopping the sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
