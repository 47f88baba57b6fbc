export const WalletScreen = () => <section data-screen="WalletScreen" />;
