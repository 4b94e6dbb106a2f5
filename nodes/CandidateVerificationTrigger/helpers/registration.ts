import type { IDataObject } from 'n8n-workflow';

/**
 * Which webhook URL a registration belongs to. The production URL (active workflow) and the test
 * URL ("Listen for test event") get separate configurations at the service and separate
 * static-data slots, so a test listen never redirects the configuration of an active workflow.
 */
export type RegistrationKind = 'production' | 'test';

export interface Registration {
	configurationId: string;
	/** The n8n URL the configuration was last pointed at. */
	webhookUrl: string;
	/** Present only while the registration is live; deactivation forgets it. */
	secret?: string;
}

export function readRegistration(
	data: IDataObject,
	kind: RegistrationKind,
): Registration | undefined {
	const slot = data[kind];
	if (typeof slot !== 'object' || slot === null || Array.isArray(slot)) return undefined;
	const { configurationId, webhookUrl, secret } = slot as IDataObject;
	if (typeof configurationId !== 'string' || configurationId === '') return undefined;
	return {
		configurationId,
		webhookUrl: typeof webhookUrl === 'string' ? webhookUrl : '',
		secret: typeof secret === 'string' && secret !== '' ? secret : undefined,
	};
}

// The slot is replaced as a whole: n8n only notices static-data changes made at this level.
export function writeRegistration(
	data: IDataObject,
	kind: RegistrationKind,
	registration: Registration,
) {
	const { secret, ...kept } = registration;
	data[kind] = secret === undefined ? { ...kept } : { ...kept, secret };
}
