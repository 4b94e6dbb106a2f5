#!/usr/bin/env node
'use strict';

// Prints N free TCP ports on 127.0.0.1, one a line. All N are held open together before any is
// released, so they are distinct; another process could still grab one before it is used.
const net = require('node:net');

const count = Number(process.argv[2] || 1);

async function main() {
	const servers = [];
	for (let i = 0; i < count; i += 1) {
		const server = net.createServer();
		await new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', resolve);
		});
		servers.push(server);
	}
	const ports = servers.map((server) => server.address().port);
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
	process.stdout.write(`${ports.join('\n')}\n`);
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
