// One HTTP(S) GET through libcurl with a client certificate (mutual TLS): what the platform's
// URLSession cannot do on Linux. Blocking; call it off the cooperative pool.
#ifndef CBEACONCURL_H
#define CBEACONCURL_H

#include <stddef.h>

/// What a transfer produced. The strings and the body are owned by the result: free it with
/// beacond_curl_result_free.
typedef struct {
    /// The HTTP status (0 when the transfer failed before one came).
    long status;
    /// The body (NULL when empty).
    unsigned char *body;
    size_t body_size;
    /// The ETag, Last-Modified and X-Beacond-Signature headers (NULL when absent).
    char *etag;
    char *last_modified;
    char *signature;
    /// 0 on success; else 1 (failed: `error` says why), 2 (timed out) or 3 (body too large).
    int failure;
    char error[512];
} beacond_curl_result;

/// GETs `url` with `header_count` header lines ("Name: value"), presenting the client
/// certificate `cert` with its key `key` (PEM files), trusting `ca` (a PEM file; NULL: the
/// system's), for at most `timeout_ms`, reading at most `max_body` bytes. Fills `result`.
void beacond_curl_get(
    const char *url, const char *const *headers, size_t header_count, const char *cert, const char *key,
    const char *ca, long timeout_ms, size_t max_body, beacond_curl_result *result);

/// Frees what a result owns (not the result itself).
void beacond_curl_result_free(beacond_curl_result *result);

#endif
