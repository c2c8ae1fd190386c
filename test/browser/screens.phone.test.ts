import { screenshotEveryStep } from '../support/screens.js';

describe('screenshots of every step on a 375×740 touch screen', () => {
  afterEach(() => sessionStorage.clear());
  it('light', () => screenshotEveryStep('phone-light', 'light', 375));
  it('dark', () => screenshotEveryStep('phone-dark', 'dark', 375));
});
