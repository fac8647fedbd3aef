// A mistake named in the form's own words: a team member's picture left without a description is
// listed above the form as the form names the place ("Block 4, Team › Members › Member 1 › … ›
// Description: a picture needs a description…"), told beside the field, and the entry in the list
// takes the person to the field, opening the block it sits in. Nothing on the way names a file's keys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { parse } from 'yaml';
import { readSchemaModel } from '../../content-model/load/schema-files.ts';
import { fieldTrail, mistakePlace } from '../../studio/app/fields/field-trail.ts';
import { blockTypeOf, buildFormModel, type Field } from '../../studio/app/fields/form-model.ts';
import { itemName } from '../../studio/app/fields/item-name.ts';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio();
});
test.afterAll(async () => {
  await studio?.stop();
});

const ROOT = path.resolve(import.meta.dirname, '../..');
const model = buildFormModel(readSchemaModel(ROOT).files);
const about = parse(readFileSync(path.join(ROOT, 'content/pages/about.yaml'), 'utf8')) as {
  blocks: { type: string; heading?: string }[];
};
const teamIndex = about.blocks.findIndex((block) => block.type === 'team');
const team = blockTypeOf(model, 'team')!;
// The labels come from the form model, so a label renamed in the schemas is followed here too.
const membersField = team.fields.find((field) => field.kind === 'list')!;
const pictureField = membersField.item!.fields!.find((field) => field.kind === 'image')!;
const descriptionField: Field = pictureField.fields!.find((field) => field.key === 'alt')!;
const segments = ['blocks', teamIndex, membersField.key, 0, pictureField.key, 'alt'];
const place = mistakePlace(fieldTrail(model, model.page, about, segments));

/** The text a screen reader reads after a field's name: its messages, then its help. */
async function description(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );
}

async function openAbout(page: Page) {
  // By its address, as a link on the publish screen opens it: on a phone the list of pages is behind a button.
  await page.goto(`${studio.url}?file=${encodeURIComponent('content/pages/about.yaml')}`);
  await expect(page.getByRole('status').filter({ hasText: /^(No unpublished changes|Draft saved|Editing…)$/ })).toBeVisible();
}

for (const width of [1280, 390]) {
  test(`a picture left without a description is named as the form names it, beside the field and in the list (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    expect(place).toBe(
      `Block ${teamIndex + 1}, ${team.title} › ${membersField.label} › ${itemName(membersField)} 1 › ${pictureField.label} › ${descriptionField.label}`,
    );

    await openAbout(page);
    const blockHeading = page.getByRole('button', { name: new RegExp(about.blocks[teamIndex]!.heading!) });
    await blockHeading.click();
    const field = page.getByLabel(new RegExp(`^${descriptionField.label}`)).first();
    await field.fill('');
    await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });

    // Beside the field, for whoever is there, read after the field's name.
    await expect.poll(() => description(field)).toMatch(/^A picture needs a description for people who cannot see it/);
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    // In the list above the form, named the way the form names the place.
    const mistakes = page.getByRole('region', { name: /thing to fix before publishing/ });
    const entry = mistakes.getByRole('link', {
      name: `${place}: a picture needs a description for people who cannot see it: say what it shows.`,
    });
    await expect(entry).toBeVisible();
    await expect(mistakes).not.toContainText('blocks[');
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`list-${width}.png`) });
    const wcag = await new AxeBuilder({ page })
      .exclude('iframe')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(wcag.violations).toEqual([]);

    // The entry takes the person to the field, opening the block again when it was closed.
    await blockHeading.click();
    await expect(field).toBeHidden();
    await entry.click();
    await expect(field).toBeFocused();

    // The publish screen lists it the same way, under the page's name.
    await page.getByRole('button', { name: /Review and publish/ }).click();
    await expect(page.getByText('Publishing is not possible yet:')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: `${place}: a picture needs a description` })).toBeVisible();
    await expect(page.getByRole('link', { name: 'About', exact: true }).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`publish-${width}.png`) });

    await page.getByRole('link', { name: 'Edit' }).first().click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'No unpublished changes' })).toBeVisible();
  });
}
