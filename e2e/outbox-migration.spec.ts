import { DEMO, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';

/**
 * A device that kept entries in the two outboxes before the one outbox (docs/decisions/offline-practice.md:
 * 'uebungskontrolle-outbox' store 'writes', 'uebungskontrolle-recordings' store 'outbox') loses
 * none of them: on the next start they are in the one outbox, listed and sent from there, and the
 * old databases are gone. In Chromium's own IndexedDB, with a real Blob.
 */
const STUDENT = DEMO.students[5]; // Mia Wagner

test('the old outboxes move into the one outbox on the first start, and the old databases go', async ({ page }) => {
  // two languages, two sizes, two axe runs: more than the default on a loaded machine
  test.setTimeout(240_000);
  await loginAs(page, STUDENT.email);
  const userId = await page.evaluate(async () => {
    const res = await fetch('/api/user', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await res.json()) as { id: number }).id;
  });

  // what an earlier version of the app left on this device
  await page.evaluate(async (uid) => {
    const seed = (name: string, store: string, entries: unknown[]) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open(name, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(store, { keyPath: 'id' });
        req.onerror = () => reject(req.error ?? new Error('open failed'));
        req.onsuccess = () => {
          const tx = req.result.transaction(store, 'readwrite');
          for (const e of entries) tx.objectStore(store).put(e);
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
        };
      });
    const made = '2026-11-23T10:00:00.000Z';
    // a completion of a task that does not exist: the server refuses it, so it stays to be seen
    await seed('uebungskontrolle-outbox', 'writes', [
      { id: crypto.randomUUID(), userId: uid, kind: 'complete', submissionId: 999999, title: 'Alte Aufgabe', method: 'PATCH', path: '/api/submissions/999999/complete', createdAt: made, seq: Date.parse(made), state: 'waiting', attempts: 0 },
    ]);
    // a take the server refused for want of room: it waits, with what to do, until discarded
    await seed('uebungskontrolle-recordings', 'outbox', [
      {
        id: crypto.randomUUID(),
        submissionId: 999999,
        userId: uid,
        title: 'Alte Aufnahme',
        blob: new Blob([new Uint8Array(2048)], { type: 'audio/webm' }),
        type: 'audio/webm',
        kind: 'audio',
        durationMs: 1500,
        message: '',
        createdAt: '2026-11-23T10:01:00.000Z',
        error: 'voll',
        refusal: { code: 'storage_quota_student', used_bytes: 52_428_800, quota_bytes: 52_428_800 },
      },
    ]);
  }, userId);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  const outbox = page.getByTestId('outbox-button').first();
  await expect(outbox).toBeVisible();
  await outbox.click();
  const items = page.getByTestId('outbox-panel').getByTestId('outbox-item');
  await expect(items).toHaveCount(2);
  // the completion was sent from the one outbox and refused by the server (no such task)
  await expect(items.nth(0)).toContainText('Als erledigt markiert – Alte Aufgabe');
  await expect(items.nth(0)).toHaveAttribute('data-state', 'refused');
  await expect(items.nth(1)).toContainText('Aufnahme – Alte Aufnahme');
  await expect(items.nth(1)).toContainText('Dein Speicher für Aufnahmen ist voll');

  const databases = async () => (await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).sort();
  await expect.poll(databases).not.toContain('uebungskontrolle-outbox');
  expect(await databases()).not.toContain('uebungskontrolle-recordings');
  expect(await databases()).toContain('uebungskontrolle-queue');
  // the take's recording survived the move whole
  const size = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const req = indexedDB.open('uebungskontrolle-queue');
        req.onerror = () => reject(req.error ?? new Error('open failed'));
        req.onsuccess = () => {
          const all = req.result.transaction('entries', 'readonly').objectStore('entries').getAll();
          all.onsuccess = () => {
            const take = (all.result as Array<{ kind: string; take?: { blob: Blob } }>).find((e) => e.kind === 'take');
            resolve(take?.take?.blob.size ?? -1);
            req.result.close();
          };
        };
      }),
  );
  expect(size).toBe(2048);

  await shot(page, 'outbox', 'migrated-de-desktop', { fullPage: false });
  await expectNoSeriousAxe(page);

  // Turkish, on the phone: the same two, with the room refusal in Turkish
  await page.setViewportSize(PHONE);
  await setLanguage(page, 'tr');
  await page.getByTestId('outbox-button').click();
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText('Kayıt');
  await shot(page, 'outbox', 'migrated-tr-phone', { fullPage: false });
  await expectNoSeriousAxe(page);
  await setLanguage(page, 'de');
  await page.getByTestId('outbox-button').click();

  // discarding empties the one outbox for good
  for (let n = 2; n > 0; n--) {
    await page.getByTestId('outbox-panel').getByRole('button', { name: 'Verwerfen' }).first().click();
    await expect(items).toHaveCount(n - 1);
  }
});
