#!/usr/bin/env bash
# Makes ./secrets/ for docker compose (docs/deploy.md#secrets): random values for the database
# password, JWT_SECRET, SECRETS_KEY, METRICS_TOKEN and the first invite code; BOT_TOKEN and the hot wallet's key
# are yours to put in (from @BotFather and from your wallet). Never overwrites a file that exists.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022
mkdir -p secrets
chmod 700 secrets
put() { [ -e "secrets/$1" ] || printf '%s' "$2" > "secrets/$1"; }
password="$(openssl rand -hex 24)"
put postgres_password "$password"
put database_url "postgres://gridbot:$(cat secrets/postgres_password)@postgres:5432/gridbot"
put jwt_secret "$(openssl rand -hex 32)"
put secrets_key "$(openssl rand -hex 32)"
put metrics_token "$(openssl rand -hex 24)"
put root_referral_code "$(openssl rand -hex 12)"
for name in bot_token hot_wallet_key; do
  if [ ! -s "secrets/$name" ]; then
    : > "secrets/$name"
    echo "secrets/$name: put yours in (see docs/deploy.md#secrets)"
  fi
done
echo "secrets/ ready; the folder is yours only (700), the files are readable by the containers' user"
