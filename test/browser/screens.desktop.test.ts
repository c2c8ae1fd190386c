import { screenshotEveryStep } from '../support/screens.js';

describe('screenshots of every step on a desktop with a mouse', () => {
  afterEach(() => sessionStorage.clear());
  it('light', () => screenshotEveryStep('desktop-light', 'light', 640));
  it('dark', () => screenshotEveryStep('desktop-dark', 'dark', 640));
});
