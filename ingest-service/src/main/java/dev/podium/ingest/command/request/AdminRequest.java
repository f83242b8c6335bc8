package dev.podium.ingest.command.request;

/**
 * A body that a resource takes as a parameter, bound by {@link AdminRequestReader} from JSON or YAML the strict way of
 * {@link RequestBinder} and then checked by {@code @Valid}. (A campaign's body is read by its resource, which has query
 * parameters to put in first.)
 */
public sealed interface AdminRequest
        permits RegisterAgentRequest,
                RotateKeyRequest,
                RevokeKeyRequest,
                RetractRequest,
                CatalogEntryRequest,
                RedriveRequest,
                CancelJobRequest {}
