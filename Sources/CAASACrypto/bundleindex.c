// A PEM certificate bundle indexed by subject while decoding as little of it as possible.
//
// The system bundle (Debian: about 140 certificates, 220 KB) is read on the first issuer the
// certificate directory lacks, which in practice is every verification: a signed file's
// intermediate is in no system store, and OpenSSL asks the trust store first. Decoding every
// block whole (PEM_read_bio) and every subject into an X509_NAME (its canonical form included)
// was most of what the system roots added to a single `aasa verify`. Here:
//   - the file is read at once and its blocks are found by their BEGIN and END lines;
//   - of each certificate only the base64 lines that hold its subject are decoded (OpenSSL's
//     EVP_DecodeUpdate), usually the first 6 or 7 lines of about 25;
//   - each subject gets a fingerprint of what X509_NAME_cmp compares (caasa_name_signature), so
//     a lookup decodes into an X509_NAME only the subjects that could match, and compares those
//     with X509_NAME_cmp itself;
//   - a certificate is decoded whole (PEM_read_bio over its block) only when a chain asks for
//     its subject.
// Anything this fast path does not handle (PEM headers, a line that is not base64, a subject
// that cannot be fingerprinted) takes OpenSSL's own path for that block or that name, so the
// set of certificates a lookup finds is the one OpenSSL's file lookup would find. No library
// reads part of a PEM block or compares names without decoding them, hence this file.
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

// MARK: - DER

/// Reads the DER header at `*cursor` with OpenSSL's ASN1_get_object and moves past it. The
/// content must end within `end` unless `may_run_past` (the outer elements of a certificate
/// read from a prefix of it); `*content_end` is where it ends as encoded.
static int caasa_der_header(const unsigned char **cursor, const unsigned char *end, int may_run_past, int *tag,
                            int *constructed, const unsigned char **content_end) {
    const unsigned char *p = *cursor;
    long length = 0;
    int class = 0;
    int info = ASN1_get_object(&p, &length, tag, &class, end - *cursor);
    // A header that is cut or malformed leaves `p` where it was; an indefinite length is not DER.
    if (p == *cursor || (info & 0x01)) return 0;
    if ((info & 0x80) && !may_run_past) return 0;  // the content runs past `end`
    *constructed = (info & V_ASN1_CONSTRUCTED) != 0;
    *cursor = p;
    *content_end = p + length;
    return 1;
}

/// Moves `*cursor` past one element that ends within `end`.
static int caasa_der_skip(const unsigned char **cursor, const unsigned char *end) {
    int tag = 0, constructed = 0;
    const unsigned char *content_end = NULL;
    if (!caasa_der_header(cursor, end, 0, &tag, &constructed, &content_end)) return 0;
    *cursor = content_end;
    return 1;
}

int caasa_certificate_subject_span(const unsigned char *der, long length, int prefix, const unsigned char **subject,
                                   long *subject_length) {
    const unsigned char *cursor = der, *end = der + length, *certificate_end = NULL, *tbs_end = NULL;
    int tag = 0, constructed = 0;
    // RFC 5280 §4.1: Certificate = SEQUENCE { tbsCertificate = SEQUENCE { [0] version OPTIONAL,
    // serialNumber, signature, issuer, validity, subject, … }, … }.
    if (!caasa_der_header(&cursor, end, prefix, &tag, &constructed, &certificate_end) || !constructed) return 0;
    if (certificate_end < end) end = certificate_end;
    if (!caasa_der_header(&cursor, end, prefix, &tag, &constructed, &tbs_end) || !constructed) return 0;
    if (tbs_end < end) end = tbs_end;
    if (cursor < end && *cursor == 0xA0 && !caasa_der_skip(&cursor, end)) return 0;  // version
    for (int field = 0; field < 4; field++)  // serialNumber, signature, issuer, validity
        if (!caasa_der_skip(&cursor, end)) return 0;
    const unsigned char *start = cursor;
    if (!caasa_der_skip(&cursor, end)) return 0;
    *subject = start;
    *subject_length = cursor - start;
    return 1;
}

// MARK: - Name fingerprints

/// SplitMix64's finaliser: spreads one character over 64 bits, so that sums of it tell
/// different multisets of characters apart.
static uint64_t caasa_mix(uint64_t value) {
    value += 0x9E3779B97F4A7C15ULL;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

/// X509_NAME_cmp compares canonical forms (OpenSSL's x509_name_canon): each string value
/// converted to UTF-8, leading and trailing white space removed, inner runs of it made one
/// space, ASCII upper case lowered; other values kept as they are; the entries of a
/// multi-valued RDN sorted. What that keeps of every value is its printable ASCII characters
/// (0x21-0x7E), lowered, each as often as it occurs: a BMPString 'A' and a PrintableString
/// 'a' are the same character in it, a space is not counted. The fingerprint is the sum of a
/// hash of each such character, so two names that X509_NAME_cmp finds equal have the same
/// fingerprint; names with different fingerprints are different, and the others are compared
/// by X509_NAME_cmp. Returns 0 when the DER is not a name whose values this reads (a
/// constructed string, a BMPString of odd length…): such a name is always compared.
int caasa_name_signature(const unsigned char *der, long length, uint64_t *signature) {
    const unsigned char *cursor = der, *end = der + length, *name_end = NULL;
    int tag = 0, constructed = 0;
    uint64_t sum = 0;
    if (!caasa_der_header(&cursor, end, 0, &tag, &constructed, &name_end) || tag != V_ASN1_SEQUENCE) return 0;
    while (cursor < name_end) {
        const unsigned char *set_end = NULL, *entry_end = NULL, *value_end = NULL;
        if (!caasa_der_header(&cursor, name_end, 0, &tag, &constructed, &set_end) || tag != V_ASN1_SET) return 0;
        while (cursor < set_end) {
            if (!caasa_der_header(&cursor, set_end, 0, &tag, &constructed, &entry_end) || tag != V_ASN1_SEQUENCE)
                return 0;
            if (!caasa_der_skip(&cursor, entry_end)) return 0;  // the attribute type
            if (!caasa_der_header(&cursor, entry_end, 0, &tag, &constructed, &value_end) || constructed) return 0;
            if (value_end != entry_end) return 0;  // anything after the value
            // UTF-8, Latin-1 (T61String) and ASCII keep ASCII characters as single bytes below
            // 0x80 (every byte of a multi-byte UTF-8 character is 0x80 or above); BMPString and
            // UniversalString are big-endian units of 2 and 4 bytes.
            long width = tag == V_ASN1_BMPSTRING ? 2 : tag == V_ASN1_UNIVERSALSTRING ? 4 : 1;
            if ((value_end - cursor) % width != 0) return 0;
            for (; cursor < value_end; cursor += width) {
                uint32_t character = 0;
                for (long byte = 0; byte < width; byte++) character = (character << 8) | cursor[byte];
                if (character < 0x21 || character > 0x7E) continue;
                if (character >= 'A' && character <= 'Z') character += 'a' - 'A';
                sum += caasa_mix(character);
            }
        }
    }
    *signature = sum;
    return 1;
}

// MARK: - The bundle's blocks

/// The file's bytes, read at once (at most `CAASA_BUNDLE_MAX` of them). NULL when it cannot be read.
#define CAASA_BUNDLE_MAX (64L * 1024 * 1024)
static char *caasa_read_file(const char *path, size_t *length) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t capacity = 256 * 1024, used = 0;
    char *text = OPENSSL_malloc(capacity + 1);
    while (text != NULL) {
        if (used == capacity) {
            if (capacity >= CAASA_BUNDLE_MAX) break;
            char *grown = OPENSSL_realloc(text, capacity * 2 + 1);
            if (grown == NULL) break;
            text = grown;
            capacity *= 2;
        }
        ssize_t got = read(fd, text + used, capacity - used);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        used += (size_t)got;
    }
    close(fd);
    if (text != NULL) text[used] = '\0';
    *length = used;
    return text;
}

/// The next line after `line` within `end` (or `end`).
static const char *caasa_next_line(const char *line, const char *end) {
    const char *newline = memchr(line, '\n', (size_t)(end - line));
    return newline == NULL ? end : newline + 1;
}

/// True when the line starts with `prefix`.
static int caasa_line_starts(const char *line, const char *end, const char *prefix) {
    size_t length = strlen(prefix);
    return (size_t)(end - line) >= length && memcmp(line, prefix, length) == 0;
}

/// Decodes the base64 body of a block from `body`, a few lines at a time, until a whole
/// subject can be read. Returns the subject's DER (malloc'd) or NULL: a line that is not base64
/// (a PEM header, say) or a certificate whose subject cannot be read.
static unsigned char *caasa_prefix_subject(const char *body, const char *body_end, long *subject_length) {
    // Base64 characters per step: 384 give 288 bytes, past the subject of most certificates.
    enum { step = 384 };
    unsigned char *der = OPENSSL_malloc((size_t)(body_end - body) / 4 * 3 + 3);
    EVP_ENCODE_CTX *context = EVP_ENCODE_CTX_new();
    unsigned char *copy = NULL;
    if (der != NULL && context != NULL) {
        EVP_DecodeInit(context);
        int decoded = 0;
        for (const char *next = body; next < body_end;) {
            const char *stop = body_end - next > step ? caasa_next_line(next + step, body_end) : body_end;
            int whole = stop == body_end, more = 0, tail = 0;
            if (EVP_DecodeUpdate(context, der + decoded, &more, (const unsigned char *)next, (int)(stop - next)) < 0)
                break;
            decoded += more;
            if (whole && EVP_DecodeFinal(context, der + decoded, &tail) < 0) break;
            decoded += tail;
            const unsigned char *subject = NULL;
            if (caasa_certificate_subject_span(der, decoded, !whole, &subject, subject_length)) {
                copy = OPENSSL_memdup(subject, (size_t)*subject_length);
                break;
            }
            next = stop;
        }
    }
    EVP_ENCODE_CTX_free(context);
    OPENSSL_free(der);
    return copy;
}

/// The block's label ("CERTIFICATE" in "-----BEGIN CERTIFICATE-----") and its length; 0 when
/// the line is not a BEGIN line.
static size_t caasa_begin_label(const char *line, const char *line_end, const char **label) {
    static const char begin[] = "-----BEGIN ";
    if (!caasa_line_starts(line, line_end, begin)) return 0;
    const char *start = line + sizeof begin - 1, *close = line_end;
    while (close > start && (close[-1] == '\n' || close[-1] == '\r' || close[-1] == ' ' || close[-1] == '\t')) close--;
    if (close - start < 5 || memcmp(close - 5, "-----", 5) != 0) return 0;
    *label = start;
    return (size_t)(close - 5 - start);
}

static int caasa_label_is(const char *label, size_t length, const char *name) {
    return strlen(name) == length && memcmp(label, name, length) == 0;
}

int caasa_bundle_index_read(caasa_bundle_index *index, const char *path) {
    index->text = caasa_read_file(path, &index->length);
    if (index->text == NULL) return !(errno == EMFILE || errno == ENFILE);
    const char *cursor = index->text, *end = index->text + index->length;
    size_t capacity = 0;
    while (cursor < end) {
        const char *line_end = caasa_next_line(cursor, end), *label = NULL;
        size_t label_length = caasa_begin_label(cursor, line_end, &label);
        if (label_length == 0) {
            cursor = line_end;
            continue;
        }
        // The END line that closes this label.
        char closing[96];
        if (label_length > sizeof closing - 16) {
            cursor = line_end;
            continue;
        }
        int closing_length = snprintf(closing, sizeof closing, "-----END %.*s-----", (int)label_length, label);
        const char *body = line_end, *close = body;
        while (close < end && !caasa_line_starts(close, end, closing)) close = caasa_next_line(close, end);
        if (close >= end) break;  // no END line: the rest is not a block
        const char *block_start = cursor;
        cursor = caasa_next_line(close + closing_length, end);
        int trusted = caasa_label_is(label, label_length, PEM_STRING_X509_TRUSTED);
        int plain = caasa_label_is(label, label_length, PEM_STRING_X509)
                    || caasa_label_is(label, label_length, PEM_STRING_X509_OLD);
        if (!trusted && !plain) continue;  // a CRL or a key: not a trust anchor
        caasa_bundle_entry entry = {.block_start = (size_t)(block_start - index->text),
                                    .block_end = (size_t)(cursor - index->text),
                                    .trusted_form = trusted};
        entry.subject = caasa_prefix_subject(body, close, &entry.subject_length);
        if (entry.subject == NULL) {
            // Not plain base64 lines: OpenSSL decodes the block, and the whole DER is read.
            X509 *certificate = caasa_bundle_certificate(index, &entry);
            const unsigned char *subject = NULL;
            unsigned char *der = NULL;
            int der_length = certificate != NULL ? i2d_X509(certificate, &der) : -1;
            long subject_length = 0;
            if (der_length > 0 && caasa_certificate_subject_span(der, der_length, 0, &subject, &subject_length)) {
                entry.subject = OPENSSL_memdup(subject, (size_t)subject_length);
                entry.subject_length = subject_length;
            }
            OPENSSL_free(der);
            X509_free(certificate);
            if (entry.subject == NULL) continue;  // not a certificate OpenSSL reads
        }
        entry.signature_known = caasa_name_signature(entry.subject, entry.subject_length, &entry.signature);
        if (index->count == capacity) {
            size_t grown = capacity == 0 ? 256 : capacity * 2;
            caasa_bundle_entry *entries = OPENSSL_realloc(index->entries, grown * sizeof *entries);
            if (entries == NULL) {
                OPENSSL_free(entry.subject);
                break;
            }
            index->entries = entries;
            capacity = grown;
        }
        index->entries[index->count++] = entry;
    }
    ERR_clear_error();
    return 1;
}

X509 *caasa_bundle_certificate(const caasa_bundle_index *index, const caasa_bundle_entry *entry) {
    BIO *bio = caasa_bio_from(index->text + entry->block_start, entry->block_end - entry->block_start);
    char *name = NULL, *header = NULL;
    unsigned char *der = NULL;
    long length = 0;
    X509 *certificate = NULL;
    if (bio != NULL && PEM_read_bio(bio, &name, &header, &der, &length)) {
        const unsigned char *cursor = der;
        certificate = entry->trusted_form ? d2i_X509_AUX(NULL, &cursor, length) : d2i_X509(NULL, &cursor, length);
    }
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(der);
    BIO_free(bio);
    return certificate;
}

int caasa_subject_matches(const unsigned char *subject, long subject_length, int subject_signature_known,
                          uint64_t subject_signature, const X509_NAME *name, int signature_known, uint64_t signature) {
    if (signature_known && subject_signature_known && subject_signature != signature) return 0;
    const unsigned char *cursor = subject;
    X509_NAME *decoded = d2i_X509_NAME(NULL, &cursor, subject_length);
    int equal = decoded != NULL && X509_NAME_cmp(decoded, name) == 0;
    X509_NAME_free(decoded);
    return equal;
}

int caasa_bundle_entry_matches(const caasa_bundle_entry *entry, const X509_NAME *name, int signature_known,
                               uint64_t signature) {
    return caasa_subject_matches(entry->subject, entry->subject_length, entry->signature_known, entry->signature, name,
                                 signature_known, signature);
}

void caasa_bundle_index_free(caasa_bundle_index *index) {
    for (size_t i = 0; i < index->count; i++) OPENSSL_free(index->entries[i].subject);
    OPENSSL_free(index->entries);
    OPENSSL_free(index->text);
    memset(index, 0, sizeof *index);
}
