// Leaving the panel for the payment provider's page. One object, so a page test can watch where the
// buyer would be sent (jsdom cannot navigate to another site).
export const paymentRedirect = {
  go(url: string): void {
    window.location.assign(url);
  },
};
