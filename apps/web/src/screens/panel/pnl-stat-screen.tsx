export const PnlStatScreen = () => <section data-screen="PnlStatScreen" />;
