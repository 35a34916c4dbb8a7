#!/bin/sh
cd /work/main
for i in $(seq 1 ${N:-12}); do
  if ! npx vitest run --project api-mysql tests/api/backup-move.test.ts > /tmp/loop.out 2>&1; then echo "FAIL at $i"; exit 1; fi
  echo "pass $i"
done
