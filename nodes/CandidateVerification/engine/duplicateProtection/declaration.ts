import type { IDataObject } from 'n8n-workflow';

import type { PreparedRequest, ServiceRead } from '../prepared';
import type { SeenAt } from './messages';

/**
 * Record Rows as Sent, a row found under a wider former identity (its Duplicate Key before 0.5.0,
 * which counted across the operation's scope): the service is asked what the ID given belongs to,
 * and the row is recorded only when the answer names the row's own scope (Profile: its form).
 */
export interface FormerRowConfirmation {
	/** What is compared, as the texts name it (e.g. "form"). */
	what: string;
	/** The row's own value (its form ID). */
	ownValue(prepared: PreparedRequest): string;
	/** How the texts name the read (its action name). */
	readLabel: string;
	/** The read of the ID given, or what it lacks (e.g. "Organisation ID"). */
	read(prepared: PreparedRequest, id: string): ServiceRead | { lacks: string };
	/** The values the answer's data names (its form IDs): none when it names none. */
	valuesIn(data: IDataObject): string[];
}

/**
 * What an operation that creates something declares of its rows for duplicate protection
 * (OperationDefinition.duplicateProtection); an operation with none of these declares `{}`.
 */
export interface ProtectionDeclaration {
	/**
	 * The accepted ID is one the item gives (Submit's and Resolve's transaction ID), not one the
	 * service makes: several rows share it by design (the checks of one candidate), so Record Rows as
	 * Sent takes one ID on several rows.
	 */
	idFromInput?: true;
	/** Where a person sees whether the service has a row, by its transaction ID (texts in doubt). */
	seenAt?: SeenAt;
	/** See FormerRowConfirmation: Record Rows as Sent checks a row keyed before 0.5.0 at the service. */
	confirmFormerRow?: FormerRowConfirmation;
	/**
	 * The check a row submits (its transaction and name): a row keyed before 0.5.0 may be another
	 * check's, and the transaction ID cannot tell, so a person reads this check before recording it.
	 */
	checkOf?(prepared: PreparedRequest): { transactionId: string; check: string };
	/** What makes two rows the same row at the service (duplicate protection); default: the request. */
	identity?(prepared: PreparedRequest): unknown;
	/**
	 * What a Duplicate Key tells rows apart within (the form; the transaction and check…): always part
	 * of a keyed row's identity, so one key never makes rows of two forms or checks one row.
	 */
	scope?(prepared: PreparedRequest): unknown;
	/**
	 * The row as 0.4.x identified it, where its `identity` changed since (Resolve: without document
	 * URLs): rows recorded then are looked up under it and held in doubt (migration.ts).
	 */
	formerIdentity?(prepared: PreparedRequest): unknown;
}
