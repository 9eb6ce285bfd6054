#include "CBeaconCurl.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    beacond_curl_result *result;
    size_t max_body;
    int too_large;
} transfer;

static pthread_once_t initialised = PTHREAD_ONCE_INIT;
static void initialise(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    beacond_curl_result *r = t->result;
    if (r->body_size + length > t->max_body) {
        t->too_large = 1;
        return 0; // aborts the transfer
    }
    unsigned char *grown = realloc(r->body, r->body_size + length);
    if (grown == NULL) return 0;
    memcpy(grown + r->body_size, data, length);
    r->body = grown;
    r->body_size += length;
    return length;
}

/// Keeps the value of "Name: value\r\n" when Name is `name` (case-insensitive).
static void keep_header(const char *line, size_t length, const char *name, char **into) {
    size_t name_length = strlen(name);
    if (length <= name_length + 1 || strncasecmp(line, name, name_length) != 0 || line[name_length] != ':') return;
    const char *value = line + name_length + 1;
    const char *end = line + length;
    while (value < end && (*value == ' ' || *value == '\t')) value++;
    while (end > value && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ')) end--;
    free(*into);
    *into = strndup(value, (size_t)(end - value));
}

static size_t on_header(char *line, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    // A new status line (a redirect's, or 100 Continue's successor) starts a new set of headers.
    if (length > 5 && strncmp(line, "HTTP/", 5) == 0) {
        free(t->result->etag);
        free(t->result->last_modified);
        free(t->result->signature);
        t->result->etag = NULL;
        t->result->last_modified = NULL;
        t->result->signature = NULL;
    }
    keep_header(line, length, "ETag", &t->result->etag);
    keep_header(line, length, "Last-Modified", &t->result->last_modified);
    keep_header(line, length, "X-Beacond-Signature", &t->result->signature);
    return length;
}

void beacond_curl_get(
    const char *url, const char *const *headers, size_t header_count, const char *cert, const char *key,
    const char *ca, long timeout_ms, size_t max_body, beacond_curl_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&initialised, initialise);
    CURL *curl = curl_easy_init();
    if (curl == NULL) {
        result->failure = 1;
        snprintf(result->error, sizeof result->error, "libcurl could not start a transfer");
        return;
    }
    transfer t = {result, max_body, 0};
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl_slist_append(list, headers[i]);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    if (cert != NULL) {
        curl_easy_setopt(curl, CURLOPT_SSLCERT, cert);
        curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    }
    if (key != NULL) {
        curl_easy_setopt(curl, CURLOPT_SSLKEY, key);
        curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (ca != NULL) curl_easy_setopt(curl, CURLOPT_CAINFO, ca);
    char detail[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, detail);
    CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->status);
    } else if (t.too_large) {
        result->failure = 3;
    } else {
        result->failure = code == CURLE_OPERATION_TIMEDOUT ? 2 : 1;
        snprintf(
            result->error, sizeof result->error, "%s%s%s", curl_easy_strerror(code), detail[0] ? ": " : "", detail);
    }
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
}

void beacond_curl_result_free(beacond_curl_result *result) {
    free(result->body);
    free(result->etag);
    free(result->last_modified);
    free(result->signature);
    result->body = NULL;
    result->etag = NULL;
    result->last_modified = NULL;
    result->signature = NULL;
}
