export const WithdrawScreen = () => <section data-screen="WithdrawScreen" />;
