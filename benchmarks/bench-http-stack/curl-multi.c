/*
 * curl-multi: the fetch-only yardstick of the HTTP stack decision (docs/audit.md, "The HTTP
 * stack"). For each line `host:port` of standard input, fetches
 * https://host:port/.well-known/apple-app-site-association and https://host:port/apple-app-site-association
 * with libcurl's multi interface, at most 2 x CONCURRENCY transfers at once (CONCURRENCY
 * domains, both paths each, as `aasa audit --concurrency` has them), and prints one line:
 *
 *   urls=N ok=N status200=N status404=N failed=N seconds=S
 *
 * As aasa fetches: a new connection per URL (CURLOPT_FORBID_REUSE, CURLOPT_FRESH_CONNECT), no
 * redirect followed, no compression asked for, body read up to 135168 bytes, TLS verified
 * against CA_FILE only (no system roots), the host name checked. Every connection goes to
 * 127.0.0.1 (CURLOPT_CONNECT_TO "::127.0.0.1:"), as `--resolve '*:*:127.0.0.1'`.
 * Unlike aasa it does not parse, lint, verify a signature or build a report.
 *
 *   cc -O2 -o curl-multi curl-multi.c $(pkg-config --cflags --libs libcurl)
 *   ./curl-multi CA_FILE CONCURRENCY < domains.txt
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BODY 135168

struct transfer {
    size_t size;
};

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    struct transfer *transfer = user;
    size_t bytes = size * count;
    (void)data;
    if (transfer->size + bytes > MAX_BODY) return 0; /* stop past the cap, as aasa does */
    transfer->size += bytes;
    return bytes;
}

static char **read_lines(size_t *count) {
    size_t capacity = 1024, used = 0;
    char **lines = malloc(capacity * sizeof *lines);
    char buffer[512];
    while (lines && fgets(buffer, sizeof buffer, stdin)) {
        buffer[strcspn(buffer, "\r\n")] = 0;
        if (!buffer[0]) continue;
        if (used == capacity) {
            capacity *= 2;
            char **grown = realloc(lines, capacity * sizeof *lines);
            if (!grown) break;
            lines = grown;
        }
        lines[used++] = strdup(buffer);
    }
    *count = used;
    return lines;
}

static CURL *start(const char *domain, const char *path, const char *ca_file, struct curl_slist *connect_to) {
    char url[700];
    snprintf(url, sizeof url, "https://%s%s", domain, path);
    CURL *easy = curl_easy_init();
    struct transfer *transfer = calloc(1, sizeof *transfer);
    if (!easy || !transfer) return NULL;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca_file);
    curl_easy_setopt(easy, CURLOPT_CAPATH, NULL);
    curl_easy_setopt(easy, CURLOPT_CONNECT_TO, connect_to);
    curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT, 10L);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "curl-multi-bench");
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer);
    return easy;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: curl-multi CA_FILE CONCURRENCY < domains.txt\n");
        return 64;
    }
    const char *ca_file = argv[1];
    long concurrency = strtol(argv[2], NULL, 10);
    if (concurrency < 1) return 64;
    size_t count = 0;
    char **domains = read_lines(&count);
    if (!domains) return 2;
    static const char *paths[] = {"/.well-known/apple-app-site-association", "/apple-app-site-association"};
    size_t total = count * 2, next = 0, done = 0, ok = 0, s200 = 0, s404 = 0, failed = 0;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 2 * concurrency);
    struct curl_slist *connect_to = curl_slist_append(NULL, "::127.0.0.1:");
    struct timespec begin, end;
    clock_gettime(CLOCK_MONOTONIC, &begin);
    int running = 0;
    while (done < total) {
        while (next < total && running < 2 * concurrency) {
            CURL *easy = start(domains[next / 2], paths[next % 2], ca_file, connect_to);
            if (!easy) return 2;
            curl_multi_add_handle(multi, easy);
            next++;
            running++;
        }
        int still = 0;
        curl_multi_perform(multi, &still);
        int queued = 0;
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            struct transfer *transfer = NULL;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&transfer);
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK) {
                ok++;
                if (status == 200) s200++;
                if (status == 404) s404++;
            } else {
                failed++;
            }
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            free(transfer);
            done++;
            running--;
        }
        if (done < total) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - begin.tv_sec) + (double)(end.tv_nsec - begin.tv_nsec) / 1e9;
    printf("urls=%zu ok=%zu status200=%zu status404=%zu failed=%zu seconds=%.3f\n", total, ok, s200, s404, failed,
           seconds);
    curl_slist_free_all(connect_to);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    for (size_t i = 0; i < count; i++) free(domains[i]);
    free(domains);
    return failed ? 1 : 0;
}
