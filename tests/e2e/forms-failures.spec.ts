// When the relay cannot take a lead, for each of the four forms: an error answer (500) and a network
// that never answers. The relay is stood in for by Playwright (lead-receiver.ts), which answers as
// each test says and records what the browser sent.
import { expect, test } from '@playwright/test';
import { expectToast, startLeadReceiver } from './lead-receiver.ts';
import { LEAD_FORM_PAGES, openAndFill, valuesWithEmail } from './lead-forms.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const form of LEAD_FORM_PAGES) {
  test.describe(`${form.form} form`, () => {
    const values = valuesWithEmail(form, 'sean@smithandsons.example');

    test('an error answer: the failure toast, every value kept; pressing again resends the same submission with the same key', async ({
      page,
    }) => {
      const receiver = await startLeadReceiver(page, 500, 201);
      const locator = await openAndFill(page, form, values);
      await locator.getByRole('button', { name: form.button }).click();

      await expectToast(page, form.failure.title, form.failure.message, form.failure.variant);
      await expect(page).toHaveURL(new RegExp(`${form.path === '/' ? '/' : form.path}$`));
      for (const [label, , value] of values) await expect(locator.getByLabel(label, { exact: true })).toHaveValue(value);
      expect(receiver.leads).toHaveLength(1);

      await locator.getByRole('button', { name: form.button }).click();
      await form.confirm(page);
      expect(receiver.leads).toHaveLength(2);
      expect(receiver.leads[1]!.headers['idempotency-key']).toBe(receiver.leads[0]!.headers['idempotency-key']);
      expect(receiver.leads[1]!.rawBody).toBe(receiver.leads[0]!.rawBody);
    });

    test('a network that never answers: one automatic retry with the same key, then the failure toast; values kept', async ({ page }) => {
      const receiver = await startLeadReceiver(page, 'network-down');
      const locator = await openAndFill(page, form, values);
      await locator.getByRole('button', { name: form.button }).click();

      await expectToast(page, form.failure.title, form.failure.message);
      expect(receiver.leads).toHaveLength(2);
      expect(receiver.leads[0]!.headers['idempotency-key']).toMatch(UUID);
      expect(receiver.leads[1]!.headers['idempotency-key']).toBe(receiver.leads[0]!.headers['idempotency-key']);
      for (const [label, , value] of values) await expect(locator.getByLabel(label, { exact: true })).toHaveValue(value);
      await expect(locator.getByRole('button', { name: form.button })).toBeEnabled();
    });
  });
}
