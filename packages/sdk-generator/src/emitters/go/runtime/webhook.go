package payments

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how old a delivery may be: older ones are refused, so a captured
// delivery cannot be replayed later.
const DefaultTolerance = 300 * time.Second

const signatureScheme = "v1"

// VerifySignature checks a delivery's Service-Signature header
// (t=<unix>,v1=<hex HMAC-SHA256 of "t.body">, keyed with the endpoint's whsec_ secret) against
// the raw body, and that t is within tolerance of now (0: no age check). It returns a
// *SignatureVerificationError otherwise.
func VerifySignature(payload []byte, header string, secret string, tolerance time.Duration) error {
	fail := func(msg string) error {
		return &SignatureVerificationError{Type: "signature_verification_error", Message: msg}
	}
	if header == "" {
		return fail("No Service-Signature header.")
	}
	var timestamp int64 = -1
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		kv := strings.SplitN(strings.TrimSpace(part), "=", 2)
		if len(kv) != 2 {
			continue
		}
		switch kv[0] {
		case "t":
			if t, err := strconv.ParseInt(kv[1], 10, 64); err == nil {
				timestamp = t
			}
		case signatureScheme:
			signatures = append(signatures, kv[1])
		}
	}
	if timestamp < 0 || len(signatures) == 0 {
		return fail("The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.")
	}
	expected := []byte(sign(payload, secret, timestamp))
	matched := false
	for _, s := range signatures {
		if hmac.Equal([]byte(s), expected) {
			matched = true
		}
	}
	if !matched {
		return fail("No signature matches the payload. Check the endpoint secret and that the body is the raw one.")
	}
	age := time.Since(time.Unix(timestamp, 0))
	if tolerance > 0 && (age > tolerance || -age > tolerance) {
		return fail(fmt.Sprintf("The signature's timestamp is %d s old, outside the %d s tolerance.", int64(age.Seconds()), int64(tolerance.Seconds())))
	}
	return nil
}

// GenerateTestHeader builds a valid Service-Signature header for a payload, for testing your
// webhook handler.
func GenerateTestHeader(payload []byte, secret string, at time.Time) string {
	return fmt.Sprintf("t=%d,%s=%s", at.Unix(), signatureScheme, sign(payload, secret, at.Unix()))
}

func sign(payload []byte, secret string, timestamp int64) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(payload)
	return hex.EncodeToString(mac.Sum(nil))
}
