# Sourced by scripts/make-image.sh and scripts/make-update-bundle.sh: the keys of the update
# bundles (docs/updates.md, "Keys").
#
#   update_keys DIR   sets UPDATE_KEY, UPDATE_CERT (what signs a bundle) and UPDATE_KEYRING (the
#                     CA certificate the image trusts). Each one given in the environment is kept;
#                     the ones missing come from a development CA in DIR, made there (openssl) the
#                     first time: DIR/ca.key.pem + ca.cert.pem (the keyring), DIR/signing.key.pem +
#                     signing.cert.pem (issued by that CA, extended key usage codeSigning, which
#                     RAUC's check-purpose=codesign asks for). Never commit DIR: out/ is ignored.
update_keys() {
    local dir=$1
    if [ -n "${UPDATE_KEY:-}" ] || [ -n "${UPDATE_CERT:-}" ]; then
        [ -n "${UPDATE_KEY:-}" ] && [ -n "${UPDATE_CERT:-}" ] \
            || { echo "update-keys: give both UPDATE_KEY= and UPDATE_CERT= (or neither: a development key)" >&2; return 1; }
        [ -f "$UPDATE_KEY" ] || { echo "update-keys: UPDATE_KEY=$UPDATE_KEY: no such file" >&2; return 1; }
        [ -f "$UPDATE_CERT" ] || { echo "update-keys: UPDATE_CERT=$UPDATE_CERT: no such file" >&2; return 1; }
        if [ -z "${UPDATE_KEYRING:-}" ]; then
            echo "update-keys: UPDATE_KEY/UPDATE_CERT given: give UPDATE_KEYRING= too (the CA certificate the devices trust)" >&2
            return 1
        fi
    fi
    if [ -n "${UPDATE_KEYRING:-}" ]; then
        [ -f "$UPDATE_KEYRING" ] || { echo "update-keys: UPDATE_KEYRING=$UPDATE_KEYRING: no such file" >&2; return 1; }
        openssl x509 -in "$UPDATE_KEYRING" -noout 2>/dev/null \
            || { echo "update-keys: UPDATE_KEYRING=$UPDATE_KEYRING is not a PEM certificate" >&2; return 1; }
    fi
    if [ -z "${UPDATE_KEY:-}" ] || [ -z "${UPDATE_KEYRING:-}" ]; then
        if [ ! -f "$dir/signing.cert.pem" ]; then
            echo "update-keys: making a development CA and signing key in $dir (not for devices in the field: docs/updates.md)" >&2
            mkdir -p "$dir"
            chmod 0700 "$dir"
            openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/O=KioskCarousel development/CN=KioskCarousel development update CA" \
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
                -keyout "$dir/ca.key.pem" -out "$dir/ca.cert.pem" 2>/dev/null
            openssl req -newkey rsa:3072 -nodes -subj "/O=KioskCarousel development/CN=KioskCarousel development update signing" \
                -keyout "$dir/signing.key.pem" -out "$dir/signing.csr.pem" 2>/dev/null
            printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n' >"$dir/signing.ext"
            openssl x509 -req -in "$dir/signing.csr.pem" -CA "$dir/ca.cert.pem" -CAkey "$dir/ca.key.pem" \
                -CAcreateserial -days 3650 -extfile "$dir/signing.ext" -out "$dir/signing.cert.pem" 2>/dev/null
            rm -f "$dir/signing.csr.pem" "$dir/signing.ext"
            [ -f "$dir/signing.cert.pem" ] || { echo "update-keys: openssl failed to make the development keys in $dir" >&2; return 1; }
        fi
        UPDATE_KEY=${UPDATE_KEY:-$dir/signing.key.pem}
        UPDATE_CERT=${UPDATE_CERT:-$dir/signing.cert.pem}
        UPDATE_KEYRING=${UPDATE_KEYRING:-$dir/ca.cert.pem}
    fi
    export UPDATE_KEY UPDATE_CERT UPDATE_KEYRING
}
