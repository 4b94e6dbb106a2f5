import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/** What the all-items check prepared for one valid item. */
export interface PreparedRequest {
	body?: IDataObject;
	qs?: IDataObject;
	/** Values for `:name` placeholders of the operation's path, already validated. */
	pathParameters?: Record<string, string>;
	/** Validated values the output repeats (so they are not read a second time). */
	echo?: IDataObject;
	/** Values a read about the row takes beside its ID, never sent (e.g. the Organisation ID). */
	readWith?: IDataObject;
}

/** A read of the service, as the engine sends it with the run's credential and settings. */
export type ServiceRead = Pick<IHttpRequestOptions, 'method' | 'url' | 'qs'>;
