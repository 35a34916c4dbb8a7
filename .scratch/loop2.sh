#!/bin/sh
# $1 = tag
cd /work/main
for i in $(seq 1 ${N:-10}); do
  if ! npx vitest run --project api-mysql tests/api/backup-move.test.ts > /tmp/loop-$1-$i.out 2>&1; then echo "FAIL $1 at $i"; cp /tmp/loop-$1-$i.out /tmp/loop-fail-$1.out; exit 1; fi
  echo "pass $1 $i"
done
