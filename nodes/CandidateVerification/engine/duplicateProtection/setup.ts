import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationDefinition } from '../operation';
import type { RunSettings } from '../runSettings';
import type { ClaimPace } from './claimPace';
import type { DuplicateMode } from './fields';
import type { RowFacts } from './migration';
import type { SentRecord } from './record';

/** What a run's gate and its parts are made of, read and checked once (DuplicateProtection). */
export interface GateSetup {
	context: IExecuteFunctions;
	operation: OperationDefinition;
	settings: RunSettings;
	mode: DuplicateMode;
	record: SentRecord;
	pace: ClaimPace;
	identityBase: unknown[];
	/** The account and operation rows are sent with, for their former identities (migration.ts). */
	account: Pick<RowFacts, 'environment' | 'credentialId' | 'baseUrl' | 'method' | 'path'>;
	waitMs: number;
	/** Each item's Duplicate Key and, Record Rows as Sent, its ID found (DuplicateProtection.readItem). */
	itemKeys: Array<{ duplicateKey?: string; idFound?: string }>;
}
