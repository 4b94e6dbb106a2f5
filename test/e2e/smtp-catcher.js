'use strict';

/**
 * A local SMTP server for the e2e examples check (dev only, node:net, no dependencies): it accepts
 * every message n8n's Send Email node (nodemailer) sends, keeps it in memory for the test to count
 * and read, and can refuse the next messages with a temporary error (451), as a mail server that is
 * down for a moment does. No TLS (the test's SMTP credential turns STARTTLS off), AUTH PLAIN/LOGIN
 * accepted with any password.
 *
 *   const catcher = await startSmtpCatcher();   // catcher.port, catcher.messages, catcher.refuseNext(n)
 */

const net = require('node:net');

function parseMessage(raw) {
	const split = raw.indexOf('\r\n\r\n');
	const head = split === -1 ? raw : raw.slice(0, split);
	const headers = {};
	for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	return { headers, subject: headers.subject, raw };
}

function startSmtpCatcher({ host = '127.0.0.1', port = 0 } = {}) {
	const messages = [];
	let refusals = 0;
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {});
		let buffer = '';
		let inData = false;
		let authStep = '';
		let envelope = { from: '', to: [] };
		const send = (line) => socket.write(`${line}\r\n`);
		send('220 cv-smtp-catcher ready');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('latin1');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end === -1) return;
					const raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
					buffer = buffer.slice(end + 5);
					inData = false;
					messages.push({ ...parseMessage(raw), from: envelope.from, to: envelope.to, at: Date.now() });
					send(`250 OK queued as ${messages.length}`);
					envelope = { from: '', to: [] };
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline === -1) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				if (authStep) {
					authStep = authStep === 'user' ? 'pass' : '';
					send(authStep ? '334 UGFzc3dvcmQ6' : '235 Authentication successful');
					continue;
				}
				const verb = line.split(' ')[0].toUpperCase();
				if (verb === 'EHLO') {
					send('250-cv-smtp-catcher');
					send('250-AUTH PLAIN LOGIN');
					send('250 8BITMIME');
				} else if (verb === 'HELO') send('250 cv-smtp-catcher');
				else if (verb === 'AUTH') {
					if (/^AUTH LOGIN/i.test(line)) {
						authStep = 'user';
						send('334 VXNlcm5hbWU6');
					} else send('235 Authentication successful');
				} else if (verb === 'MAIL') {
					if (refusals > 0) {
						refusals -= 1;
						send('451 4.3.0 Temporarily unable to accept mail (cv-smtp-catcher refusal)');
					} else {
						envelope = { from: line.replace(/^MAIL FROM:\s*/i, ''), to: [] };
						send('250 OK');
					}
				} else if (verb === 'RCPT') {
					envelope.to.push(line.replace(/^RCPT TO:\s*/i, ''));
					send('250 OK');
				} else if (verb === 'DATA') {
					inData = true;
					send('354 End data with <CR><LF>.<CR><LF>');
				} else if (verb === 'RSET') {
					envelope = { from: '', to: [] };
					send('250 OK');
				} else if (verb === 'NOOP') send('250 OK');
				else if (verb === 'QUIT') {
					send('221 Bye');
					socket.end();
				} else send('502 Command not implemented');
			}
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			resolve({
				port: server.address().port,
				messages,
				/** The next `count` messages are refused at MAIL FROM with 451. */
				refuseNext(count) {
					refusals = count;
				},
				close() {
					for (const socket of sockets) socket.destroy();
					return new Promise((done) => server.close(() => done()));
				},
			});
		});
	});
}

module.exports = { startSmtpCatcher };
