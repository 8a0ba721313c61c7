// Opens a page of the lab and waits until the engine has loaded and every
// section has drawn its first figures.
export async function open(page, url) {
  await page.goto(url);
  await page.locator('body.ready').waitFor();
}
