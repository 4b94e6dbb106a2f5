import { BinaryDataService } from 'n8n-core';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { Container } from '@n8n/di';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { createServer, type IncomingHttpHeaders } from 'node:http';
import nock from 'nock';
import type { IHttpRequestOptions } from 'n8n-workflow';

import {
	TEST_API_KEY,
	TEST_CREDENTIALS,
	TestCredentialsHelper,
} from '../harness/credentials-helper';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const DOWNLOAD = '/verification/api/1.0/download-manager/download-file';
const SIGNED = '/verification/api/1.0/download-manager/url';
const PRIVATE_URL = 'https://files.cv.test/private/65f1/offer%20letter.pdf';
const PDF = Buffer.concat([
	Buffer.from('%PDF-1.4\n'),
	Buffer.alloc(200_000, 7),
	Buffer.from('\n%%EOF\n'),
]);

interface ReceivedRequest {
	url: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/** The service on a local port: records each request's raw bytes and answers with the next status. */
async function recordingService(statuses: number[]) {
	const received: ReceivedRequest[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({ url: request.url!, headers: request.headers, body: Buffer.concat(chunks) });
			const status = statuses[received.length - 1] ?? 200;
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify(
					status === 200
						? success({ fileUrl: 'https://files.cv.test/private/pan.pdf' })
						: { code: -1, message: 'Service unavailable' },
				),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		received,
		credentials: { ...TEST_CREDENTIALS, stagingBaseUrl: `http://127.0.0.1:${port}` },
		close: async () => await new Promise((resolve) => server.close(resolve)),
	};
}

/**
 * The multipart body n8n's HTTP client made of a FormData with the file in field `file` (the
 * layout uploads had when the node sent a FormData), around the boundary given.
 */
function multipartBytes(boundary: string, fileName: string, mimeType: string, file: Buffer) {
	return Buffer.concat([
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mimeType}\r\n\r\n`,
		),
		file,
		Buffer.from(`\r\n--${boundary}--\r\n`),
	]);
}

async function storedBytes(result: Awaited<ReturnType<typeof runActionNode>>, property = 'data') {
	const binary = result.items[0].binary?.[property];
	if (!binary) throw new Error(`no binary property ${property}`);
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

describe('File', () => {
	enableMockedNetwork();

	describe('Download', () => {
		const download = {
			resource: 'file',
			operation: 'download',
			url: PRIVATE_URL,
			binaryPropertyName: 'report',
		};

		it('asks for the file stream and stores it as binary with the name and MIME type of the response', async () => {
			const { scope, requests } = mockService();
			scope.post(DOWNLOAD).reply(200, PDF, {
				'content-type': 'application/pdf',
				'content-disposition': 'attachment; filename="candidate-report.pdf"',
			});

			const result = await runActionNode({ parameters: download });

			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'POST', path: DOWNLOAD });
			expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
			expect(requests[0].body).toEqual({ url: PRIVATE_URL, getDownloadToken: false });
			expect(outputJson(result)).toEqual([
				{
					url: PRIVATE_URL,
					fileName: 'candidate-report.pdf',
					mimeType: 'application/pdf',
					fileSize: '200 kB',
					bytes: PDF.length,
					binaryPropertyName: 'report',
				},
			]);
			const binary = result.items[0].binary!.report;
			expect(binary).toMatchObject({
				fileName: 'candidate-report.pdf',
				mimeType: 'application/pdf',
				fileExtension: 'pdf',
			});
			// Streamed into the filesystem store: the item holds a reference, not the bytes.
			expect(binary.id).toMatch(/^filesystem-v2:/);
			expect((await storedBytes(result, 'report')).equals(PDF)).toBe(true);
		});

		it('keeps the input item’s fields (transaction, candidate name) next to the file’s', async () => {
			const { scope } = mockService();
			scope.post(DOWNLOAD).reply(200, PDF, { 'content-type': 'application/pdf' });

			const result = await runActionNode({
				items: [{ transactionId: 'TXN-1', name: 'Asha Verma', state: 'COMPLETED' }],
				parameters: { ...download, url: '={{ "' + PRIVATE_URL + '" }}' },
			});

			expect(outputJson(result)).toEqual([
				{
					transactionId: 'TXN-1',
					name: 'Asha Verma',
					state: 'COMPLETED',
					url: PRIVATE_URL,
					fileName: 'offer letter.pdf',
					mimeType: 'application/pdf',
					fileSize: '200 kB',
					bytes: PDF.length,
					binaryPropertyName: 'report',
				},
			]);
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
		});

		it('takes the file name from the URL and honours a file name override', async () => {
			const { scope } = mockService();
			scope.post(DOWNLOAD).times(2).reply(200, PDF, { 'content-type': 'application/pdf' });

			const fromUrl = await runActionNode({ parameters: download });
			const overridden = await runActionNode({
				parameters: { ...download, downloadOptions: { fileName: 'asha.pdf' } },
			});

			expect(fromUrl.items[0].json.fileName).toBe('offer letter.pdf');
			expect(overridden.items[0].json.fileName).toBe('asha.pdf');
		});

		it('reports a code -1 answer instead of storing it as a file', async () => {
			const { scope } = mockService();
			scope
				.post(DOWNLOAD)
				.reply(
					200,
					{ code: -1, message: 'File not found' },
					{ 'content-type': 'application/json' },
				);

			const result = await runActionNode({ parameters: download });

			expect(result.error?.message).toBe(
				'Download a private file was rejected by the Candidate Verification Service: File not found',
			);
			expect(result.items).toEqual([]);
		});

		it.each([
			['application/octet-stream'],
			['application/pdf'],
			['text/plain; charset=utf-8'],
			['text/html'],
		])('recognises a code -1 envelope labelled %s and stores no file', async (contentType) => {
			const { scope } = mockService();
			scope.post(DOWNLOAD).reply(200, JSON.stringify({ code: -1, message: 'File not found' }), {
				'content-type': contentType,
			});

			const result = await runActionNode({ parameters: download });

			expect(result.error?.message).toBe(
				'Download a private file was rejected by the Candidate Verification Service: File not found',
			);
			expect(result.items).toEqual([]);
		});

		it('stores a small JSON file that is not an envelope as a file', async () => {
			const { scope } = mockService();
			const document = Buffer.from(JSON.stringify({ candidate: 'Asha', checks: 3 }));
			scope.post(DOWNLOAD).reply(200, document, { 'content-type': 'application/octet-stream' });

			const result = await runActionNode({ parameters: download });

			expect(result.error).toBeUndefined();
			expect(await storedBytes(result, 'report')).toEqual(document);
		});

		describe('an HTML page answered under HTTP 200 (a login page, a gateway)', () => {
			const LOGIN_PAGE =
				'<!DOCTYPE html>\n<html><head><title>Sign in · Corporate Gateway</title></head><body><h1>Please sign in</h1></body></html>';

			it.each([['text/html; charset=utf-8'], ['application/octet-stream']])(
				'fails naming the status, the content type and the title (labelled %s), and stores nothing',
				async (contentType) => {
					const { scope } = mockService();
					scope.post(DOWNLOAD).reply(200, LOGIN_PAGE, { 'content-type': contentType });

					const result = await runActionNode({ parameters: download });

					expect(result.error?.message).toBe(
						`Download a private file failed: the Candidate Verification Service answered HTTP 200 with a web page (${contentType}, title "Sign in · Corporate Gateway") instead of a file`,
					);
					expect(result.error?.description).toBe(
						'Body starts with: Sign in · Corporate Gateway Please sign in\n' +
							'A login page, a proxy or a gateway may have answered instead of the service: check the Private File URL and the base URL of the credential. If the file may really be an HTML page, turn on Options → Allow HTML File.',
					);
					expect(result.items).toEqual([]);
				},
			);

			it('with Options → Allow HTML File, stores the page as the file', async () => {
				const { scope } = mockService();
				scope.post(DOWNLOAD).reply(200, LOGIN_PAGE, { 'content-type': 'text/html' });

				const result = await runActionNode({
					parameters: { ...download, downloadOptions: { allowHtmlFile: true } },
				});

				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toMatchObject({ mimeType: 'text/html' });
				expect((await storedBytes(result, 'report')).toString()).toBe(LOGIN_PAGE);
			});
		});

		it('reports an HTTP error with a non-JSON body', async () => {
			const { scope } = mockService();
			scope.post(DOWNLOAD).reply(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });

			const result = await runActionNode({ parameters: download });

			expect(result.error?.message).toBe(
				'Download a private file failed: the Candidate Verification Service answered HTTP 404 with a body that is not JSON',
			);
			expect(result.error?.description).toBe('Body starts with: Not Found');
		});

		describe('redirects', () => {
			const STORAGE = 'https://storage.example';

			/** Another host: records the headers of each request it gets. */
			function otherHost(origin: string) {
				const seen: Array<Record<string, unknown>> = [];
				const scope = nock(origin);
				scope.on('request', (req: { headers: Record<string, unknown> }) => seen.push(req.headers));
				return { scope, seen };
			}

			it('a redirect within the service’s origin is followed with the key', async () => {
				const { scope, requests } = mockService();
				scope.post(DOWNLOAD).reply(302, '', { Location: '/files/65f1/report.pdf?sig=abc' });
				scope
					.get('/files/65f1/report.pdf?sig=abc')
					.reply(200, PDF, { 'content-type': 'application/pdf' });

				const result = await runActionNode({ parameters: download });

				expect(result.error).toBeUndefined();
				expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
					`POST ${DOWNLOAD}`,
					'GET /files/65f1/report.pdf?sig=abc',
				]);
				expect(requests[1].headers['x-api-key']).toBe(TEST_API_KEY);
				expect((await storedBytes(result, 'report')).equals(PDF)).toBe(true);
			});

			it('a redirect to another origin is followed without the key, and the file arrives', async () => {
				const { scope } = mockService();
				scope.post(DOWNLOAD).reply(302, '', { Location: `${STORAGE}/bucket/report.pdf?X-Sig=abc` });
				const storage = otherHost(STORAGE);
				storage.scope
					.get('/bucket/report.pdf?X-Sig=abc')
					.reply(200, PDF, { 'content-type': 'application/pdf' });

				const result = await runActionNode({ parameters: download });

				expect(result.error).toBeUndefined();
				expect(storage.seen).toHaveLength(1);
				expect(storage.seen[0]).not.toHaveProperty('x-api-key');
				expect(JSON.stringify(storage.seen[0])).not.toContain(TEST_API_KEY);
				expect(storage.seen[0]).not.toHaveProperty('content-type');
				expect(result.items[0].json).toMatchObject({
					fileName: 'offer letter.pdf',
					bytes: PDF.length,
				});
				expect((await storedBytes(result, 'report')).equals(PDF)).toBe(true);
			});

			it('a redirect from https to http is refused, naming the operation and the service', async () => {
				const { scope } = mockService();
				scope.post(DOWNLOAD).reply(302, '', {
					Location: 'http://storage.example/bucket/report.pdf?X-Sig=abc',
				});
				const plain = otherHost('http://storage.example');
				plain.scope.get(/.*/).reply(200, PDF);

				const result = await runActionNode({ parameters: download });

				expect(result.error?.message).toBe(
					'Download a private file failed: the Candidate Verification Service redirected the request from https to http (http://storage.example/bucket/report.pdf)',
				);
				expect(result.error?.description).toBe(
					'The node does not follow a redirect from https to http: the answer would travel unencrypted. Ask the provider to serve it over https; the Private File URL and the credential’s base URL should start with https://.',
				);
				expect(plain.seen).toHaveLength(0);
				expect(result.items).toEqual([]);
			});

			it('a redirect without an address is an error, not an empty file', async () => {
				const { scope } = mockService();
				scope.post(DOWNLOAD).reply(302, '');

				const result = await runActionNode({ parameters: download });

				expect(result.error?.message).toBe(
					'Download a private file failed: the Candidate Verification Service answered HTTP 302, a redirect without an address',
				);
				expect(result.error?.description).toBe(
					'Check the Private File URL and the base URL of the credential; if they are right, ask the provider about the redirect.',
				);
				expect(result.items).toEqual([]);
			});

			it('more than 5 redirects are refused (a loop)', async () => {
				const { scope, requests } = mockService();
				scope.post(DOWNLOAD).reply(302, '', { Location: '/hop/1' });
				scope
					.get(/^\/hop\/\d+$/)
					.times(10)
					.reply((uri) => [302, '', { Location: `/hop/${Number(uri.split('/').pop()) + 1}` }]);

				const result = await runActionNode({ parameters: download });

				expect(requests).toHaveLength(6);
				expect(result.error?.message).toBe(
					'Download a private file failed: the Candidate Verification Service redirected the request more than 5 times (the last time to https://cv.test/hop/6)',
				);
				expect(result.items).toEqual([]);
			});
		});
	});

	describe('Get Download Token', () => {
		it('asks for a token and outputs it', async () => {
			const { scope, requests } = mockService();
			scope.post(DOWNLOAD).reply(200, success({ downloadToken: 'tok-1' }));

			const result = await runActionNode({
				parameters: { resource: 'file', operation: 'getDownloadToken', url: PRIVATE_URL },
			});

			expect(requests[0].body).toEqual({ url: PRIVATE_URL, getDownloadToken: true });
			expect(outputJson(result)).toEqual([{ url: PRIVATE_URL, downloadToken: 'tok-1' }]);
		});
	});

	describe('Get Signed URL', () => {
		it('gets a token, then the signed URL for it, and outputs when it expires (180 minutes)', async () => {
			const { scope, requests } = mockService();
			scope.post(DOWNLOAD).reply(200, success({ downloadToken: 'tok 2' }));
			scope
				.get(SIGNED)
				.query({ token: 'tok 2' })
				.reply(200, success({ signedUrl: 'https://files.cv.test/s/abc' }));
			const before = Date.now();

			const result = await runActionNode({
				parameters: { resource: 'file', operation: 'getSignedUrl', url: PRIVATE_URL },
			});

			expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
				`POST ${DOWNLOAD}`,
				`GET ${SIGNED}?token=tok%202`,
			]);
			expect(requests[0].body).toEqual({ url: PRIVATE_URL, getDownloadToken: true });
			expect(requests.every((request) => request.headers['x-api-key'] === TEST_API_KEY)).toBe(true);
			const [output] = outputJson(result);
			expect(output).toEqual({
				url: PRIVATE_URL,
				signedUrl: 'https://files.cv.test/s/abc',
				expiresAt: expect.any(String),
				expiresInMinutes: 180,
			});
			const expiresAt = Date.parse(output.expiresAt as string);
			expect(expiresAt).toBeGreaterThanOrEqual(before + 180 * 60_000 - 1000);
			expect(expiresAt).toBeLessThanOrEqual(Date.now() + 180 * 60_000);
		});

		it('stops after a rejected token step and names that step', async () => {
			const { scope, requests } = mockService();
			scope.post(DOWNLOAD).reply(200, { code: -1, message: '"url" is not a private file' });

			const result = await runActionNode({
				parameters: { resource: 'file', operation: 'getSignedUrl', url: PRIVATE_URL },
			});

			expect(result.error?.message).toBe(
				'Get a signed URL for a private file (download token step) was rejected by the Candidate Verification Service: "url" is not a private file',
			);
			expect(requests).toHaveLength(1);
		});
	});

	describe('Upload (from the provider public documentation)', () => {
		const pdfFile = {
			base64: PDF.subarray(0, 1000).toString('base64'),
			fileName: 'pan.pdf',
			mimeType: 'application/pdf',
		};

		it('sends the binary as multipart field "file" with the category in the query; outputs fileUrl', async () => {
			const { scope, requests } = mockService();
			scope
				.post('/utility/api/1.0/files')
				.query({ fileCategory: 'bgv-cibil' })
				.reply(200, success({ fileUrl: 'https://files.cv.test/private/pan.pdf' }));

			const result = await runActionNode({
				items: [{ candidate: 'Asha', __files: { document: pdfFile } }],
				parameters: {
					resource: 'file',
					operation: 'upload',
					binaryPropertyName: 'document',
					fileCategory: 'bgv-cibil',
				},
			});

			expect(result.error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(requests[0].path).toBe('/utility/api/1.0/files?fileCategory=bgv-cibil');
			expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
			const contentType = String(requests[0].headers['content-type']);
			expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
			const body = String(requests[0].body);
			expect(body).toContain('Content-Disposition: form-data; name="file"; filename="pan.pdf"');
			expect(body).toContain('Content-Type: application/pdf');
			expect(body).toContain('%PDF-1.4');
			expect(outputJson(result)).toEqual([
				{
					fileUrl: 'https://files.cv.test/private/pan.pdf',
					fileCategory: 'bgv-cibil',
					fileName: 'pan.pdf',
				},
			]);
		});

		describe('the file streamed from n8n’s binary data into the multipart body', () => {
			// Every byte value, so a body re-encoded as text would not match.
			const FILE = Buffer.from(
				Array.from({ length: 300_000 }, (_, i) => (i * 31 + (i >> 8)) % 256),
			);
			const upload = {
				resource: 'file',
				operation: 'upload',
				binaryPropertyName: 'document',
				fileCategory: 'bgv-cibil',
			};
			const document = {
				base64: FILE.toString('base64'),
				fileName: 'pan "v2".pdf',
				mimeType: 'application/pdf',
			};
			let service: Awaited<ReturnType<typeof recordingService>> | undefined;
			beforeEach(() => nock.enableNetConnect('127.0.0.1'));
			afterEach(async () => {
				jest.restoreAllMocks();
				await service?.close();
			});

			function expectExactMultipart(request: ReceivedRequest) {
				const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(
					String(request.headers['content-type']),
				)?.[1];
				expect(boundary).toBeDefined();
				const expected = multipartBytes(boundary!, 'pan %22v2%22.pdf', 'application/pdf', FILE);
				expect(request.body.equals(expected)).toBe(true);
				expect(request.headers['content-length']).toBe(String(expected.length));
				expect(request.headers['transfer-encoding']).toBeUndefined();
			}

			it('the service receives the exact multipart bytes; the stored file is read as a stream, never whole into memory', async () => {
				service = await recordingService([200]);
				const asBuffer = jest.spyOn(BinaryDataService.prototype, 'getAsBuffer');
				const asStream = jest.spyOn(BinaryDataService.prototype, 'getAsStream');
				const authenticate = jest.spyOn(TestCredentialsHelper.prototype, 'authenticate');

				const result = await runActionNode({
					items: [{ __files: { document } }],
					parameters: upload,
					credentials: service.credentials,
				});

				expect(result.error).toBeUndefined();
				expect(service.received).toHaveLength(1);
				expect(service.received[0].url).toBe('/utility/api/1.0/files?fileCategory=bgv-cibil');
				expectExactMultipart(service.received[0]);
				expect(asBuffer).not.toHaveBeenCalled();
				expect(asStream).toHaveBeenCalledTimes(1);
				// The body handed to n8n holds no copy of the file: no Buffer, no FormData, no Blob of bytes.
				const body = (authenticate.mock.calls[0][2] as IHttpRequestOptions).body;
				expect(Buffer.isBuffer(body)).toBe(false);
				expect(body).not.toBeInstanceOf(FormData);
				expect(body).not.toBeInstanceOf(Blob);
				expect(JSON.stringify(body).length).toBeLessThan(1000);
				expect(outputJson(result)).toEqual([
					{
						fileUrl: 'https://files.cv.test/private/pan.pdf',
						fileCategory: 'bgv-cibil',
						fileName: 'pan "v2".pdf',
					},
				]);
			});

			it('a retried upload (503, then accepted) sends the same bytes again, read afresh', async () => {
				service = await recordingService([503, 200]);
				const asStream = jest.spyOn(BinaryDataService.prototype, 'getAsStream');

				const result = await runActionNode({
					items: [{ __files: { document } }],
					parameters: { ...upload, requestOptions: { retryWait: 1 } },
					credentials: service.credentials,
				});

				expect(result.error).toBeUndefined();
				expect(service.received).toHaveLength(2);
				expectExactMultipart(service.received[0]);
				expectExactMultipart(service.received[1]);
				expect(asStream).toHaveBeenCalledTimes(2);
			});

			it('a binary held in the item (no binary store ID) is sent the same way', async () => {
				service = await recordingService([200]);

				const result = await runActionNode({
					items: [{ __files: { document: { ...document, inMemory: true } } }],
					parameters: upload,
					credentials: service.credentials,
				});

				expect(result.error).toBeUndefined();
				expectExactMultipart(service.received[0]);
			});
		});

		it('names the missing binary field before sending anything', async () => {
			const { requests } = mockService();

			const result = await runActionNode({
				items: [{ __files: { data: pdfFile } }],
				parameters: {
					resource: 'file',
					operation: 'upload',
					binaryPropertyName: 'document',
					fileCategory: 'bgv-cibil',
				},
			});

			expect(result.error?.message).toBe(
				'Invalid "Input Binary Field" in item 0: the input item has no binary field "document"',
			);
			expect(result.error?.description).toBe(
				'Binary fields on this item: data\nNothing was sent to the Candidate Verification Service for any item. Fix these items and run again, or set Settings → On Error to Continue to send the valid items.',
			);
			expect(requests).toHaveLength(0);
		});
	});
});
