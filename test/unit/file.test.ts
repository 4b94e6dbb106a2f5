import { BinaryDataService } from 'n8n-core';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { Container } from '@n8n/di';

import { TEST_API_KEY } from '../harness/credentials-helper';
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
