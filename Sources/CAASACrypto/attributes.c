// RFC 5652 §11 (and the ESS attributes of RFC 2634 and RFC 5035) on a SignerInfo's signed and
// unsigned attributes: which attribute may stand in which set, how many times, with how many
// values. The rules are those of OpenSSL's CMS verifier (ossl_cms_si_check_attributes, which
// `openssl cms -verify` applies); the PKCS#7 API that verifies AASA files applies none of them,
// so they are enforced here before any signature is checked.
#include "internal.h"

enum {
    CAASA_ATTR_SIGNED = 0x01,        ///< may appear only among the signed attributes
    CAASA_ATTR_UNSIGNED = 0x02,      ///< may appear only among the unsigned attributes
    CAASA_ATTR_REQUIRED = 0x04,      ///< required whenever there are signed attributes
    CAASA_ATTR_ONLY_ONE = 0x08,      ///< at most one attribute of this type in its set
    CAASA_ATTR_ONE_VALUE = 0x10,     ///< exactly one value
};

typedef struct caasa_attribute_rule {
    int nid;
    const char *name;       ///< as the RFC names it
    const char *reference;  ///< where the rule is written
    unsigned flags;
} caasa_attribute_rule;

static const caasa_attribute_rule caasa_attribute_rules[] = {
    {NID_pkcs9_contentType, "contentType", "RFC 5652 §11.1",
     CAASA_ATTR_SIGNED | CAASA_ATTR_REQUIRED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
    {NID_pkcs9_messageDigest, "messageDigest", "RFC 5652 §11.2",
     CAASA_ATTR_SIGNED | CAASA_ATTR_REQUIRED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
    {NID_pkcs9_signingTime, "signingTime", "RFC 5652 §11.3",
     CAASA_ATTR_SIGNED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
    {NID_pkcs9_countersignature, "countersignature", "RFC 5652 §11.4", CAASA_ATTR_UNSIGNED},
    {NID_id_smime_aa_signingCertificate, "signingCertificate", "RFC 2634 §5.4",
     CAASA_ATTR_SIGNED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
    {NID_id_smime_aa_signingCertificateV2, "signingCertificateV2", "RFC 5035 §3",
     CAASA_ATTR_SIGNED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
    {NID_id_smime_aa_receiptRequest, "receiptRequest", "RFC 2634 §2.7",
     CAASA_ATTR_SIGNED | CAASA_ATTR_ONLY_ONE | CAASA_ATTR_ONE_VALUE},
};

static const caasa_attribute_rule *caasa_attribute_rule_for(int nid) {
    for (size_t i = 0; i < sizeof caasa_attribute_rules / sizeof caasa_attribute_rules[0]; i++)
        if (caasa_attribute_rules[i].nid == nid) return &caasa_attribute_rules[i];
    return NULL;
}

/// A time as RFC 5652 §11.3 wants a signingTime: well-formed, in UTC with seconds and no
/// fraction (YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ), UTCTime for the years 1950 to 2049.
static const char *caasa_signing_time_problem(const ASN1_TYPE *value) {
    if (value->type != V_ASN1_UTCTIME && value->type != V_ASN1_GENERALIZEDTIME)
        return "the signingTime attribute is neither UTCTime nor GeneralizedTime";
    const ASN1_TIME *time = value->type == V_ASN1_UTCTIME ? value->value.utctime : value->value.generalizedtime;
    const unsigned char *text = ASN1_STRING_get0_data(time);
    int length = ASN1_STRING_length(time);
    int expected = value->type == V_ASN1_UTCTIME ? 13 : 15;
    if (length != expected || text[length - 1] != 'Z' || !ASN1_TIME_check(time))
        return value->type == V_ASN1_UTCTIME ? "the signingTime attribute is not a valid UTCTime (YYMMDDHHMMSSZ)"
                                             : "the signingTime attribute is not a valid GeneralizedTime (YYYYMMDDHHMMSSZ)";
    if (value->type == V_ASN1_GENERALIZEDTIME) {
        int year = (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
        if (year >= 1950 && year <= 2049)
            return "the signingTime attribute is a GeneralizedTime for a year from 1950 to 2049, which must be a UTCTime";
    }
    return NULL;
}

/// The placement, multiplicity and value-count rules on one set of attributes (`is_signed`:
/// the signed set). CAASA_OK, or CAASA_ERR_SIGNED_ATTRIBUTES explained.
static caasa_status caasa_check_attribute_set(const STACK_OF(X509_ATTRIBUTE) *attributes, int is_signed, int index) {
    int count = sk_X509_ATTRIBUTE_num(attributes);
    for (int i = 0; i < count; i++) {
        X509_ATTRIBUTE *attribute = sk_X509_ATTRIBUTE_value(attributes, i);
        const ASN1_OBJECT *type = X509_ATTRIBUTE_get0_object(attribute);
        const caasa_attribute_rule *rule = caasa_attribute_rule_for(OBJ_obj2nid(type));
        if (rule == NULL) continue;
        if ((rule->flags & (is_signed ? CAASA_ATTR_SIGNED : CAASA_ATTR_UNSIGNED)) == 0) {
            caasa_explain("SignerInfo %d carries %s as %s attribute; %s allows it only as %s attribute", index + 1,
                          rule->name, is_signed ? "a signed" : "an unsigned", rule->reference,
                          is_signed ? "an unsigned" : "a signed");
            return CAASA_ERR_SIGNED_ATTRIBUTES;
        }
        if (rule->flags & CAASA_ATTR_ONLY_ONE) {
            int same = 0;
            for (int j = 0; j < count; j++)
                same += OBJ_cmp(X509_ATTRIBUTE_get0_object(sk_X509_ATTRIBUTE_value(attributes, j)), type) == 0;
            if (same > 1) {
                caasa_explain("SignerInfo %d has %d %s attributes; %s allows only one", index + 1, same, rule->name,
                              rule->reference);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        }
        int values = X509_ATTRIBUTE_count(attribute);
        if ((rule->flags & CAASA_ATTR_ONE_VALUE) && values != 1) {
            caasa_explain("SignerInfo %d's %s attribute has %d values; %s allows exactly one", index + 1, rule->name,
                          values, rule->reference);
            return CAASA_ERR_SIGNED_ATTRIBUTES;
        }
    }
    return CAASA_OK;
}

/// The values of the attributes this module reads: contentType (equal to the encapsulated
/// content type), messageDigest (an OCTET STRING), signingTime (RFC 5652 §11.3's form).
static caasa_status caasa_check_signed_values(const STACK_OF(X509_ATTRIBUTE) *attributes,
                                              const ASN1_OBJECT *content_type, int index) {
    char want[160], got[160];
    for (int i = 0; i < sk_X509_ATTRIBUTE_num(attributes); i++) {
        X509_ATTRIBUTE *attribute = sk_X509_ATTRIBUTE_value(attributes, i);
        int nid = OBJ_obj2nid(X509_ATTRIBUTE_get0_object(attribute));
        ASN1_TYPE *value = X509_ATTRIBUTE_get0_type(attribute, 0);
        if (value == NULL) continue;  // only attributes with one value reach here
        if (nid == NID_pkcs9_contentType) {
            if (value->type != V_ASN1_OBJECT) {
                caasa_explain("SignerInfo %d's contentType attribute is not an object identifier (RFC 5652 §11.1)",
                              index + 1);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
            if (OBJ_cmp(value->value.object, content_type) != 0) {
                caasa_explain("SignerInfo %d's contentType attribute says %s, but the signed content is %s; RFC 5652 "
                              "§5.3 requires them to be the same",
                              index + 1, caasa_describe_object(value->value.object, got, sizeof got),
                              caasa_describe_object(content_type, want, sizeof want));
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        } else if (nid == NID_pkcs9_messageDigest) {
            if (value->type != V_ASN1_OCTET_STRING) {
                caasa_explain("SignerInfo %d's messageDigest attribute is not an OCTET STRING (RFC 5652 §11.2)", index + 1);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        } else if (nid == NID_pkcs9_signingTime) {
            const char *problem = caasa_signing_time_problem(value);
            if (problem != NULL) {
                caasa_explain("SignerInfo %d: %s (RFC 5652 §11.3)", index + 1, problem);
                return CAASA_ERR_SIGNED_ATTRIBUTES;
            }
        }
    }
    return CAASA_OK;
}

caasa_status caasa_check_signer_attributes(PKCS7_SIGNER_INFO *info, const ASN1_OBJECT *content_type, int index) {
    STACK_OF(X509_ATTRIBUTE) *signed_attributes = PKCS7_get_signed_attributes(info);
    STACK_OF(X509_ATTRIBUTE) *unsigned_attributes = PKCS7_get_attributes(info);
    caasa_status status = caasa_check_attribute_set(unsigned_attributes, 0, index);
    if (status != CAASA_OK || sk_X509_ATTRIBUTE_num(signed_attributes) <= 0) return status;
    // RFC 5652 §5.3: with signed attributes, contentType and messageDigest are required.
    for (size_t r = 0; r < sizeof caasa_attribute_rules / sizeof caasa_attribute_rules[0]; r++) {
        const caasa_attribute_rule *rule = &caasa_attribute_rules[r];
        if ((rule->flags & CAASA_ATTR_REQUIRED) && X509at_get_attr_by_NID(signed_attributes, rule->nid, -1) < 0) {
            caasa_explain("SignerInfo %d has signed attributes but no %s attribute; RFC 5652 §5.3 requires one",
                          index + 1, rule->name);
            return CAASA_ERR_SIGNED_ATTRIBUTES;
        }
    }
    status = caasa_check_attribute_set(signed_attributes, 1, index);
    if (status != CAASA_OK) return status;
    return caasa_check_signed_values(signed_attributes, content_type, index);
}
